package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.io.profile.ProfileFile;
import org.cacheflow.io.profile.ProfileFileReader;
import org.cacheflow.model.Actor;
import org.cacheflow.model.Graph;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Port;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.Timing;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.schedule.ActorNames;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.MeasuredRereads;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.report.FactSource;

/**
 * A profile ({@code --profile profile.json}) applied to a loaded graph before it is analysed: a port without an
 * annotation takes the one measured; a declaration the run contradicts gives way to the safe choice ({@code NONE}:
 * no copy-on-write on a written input, no write-only output that was read first), with a warning naming actor and
 * port; the scenario's timings of the profiled actors are replaced by their measured medians, in nanoseconds (and the
 * target's timing unit is then the nanosecond). Each applied fact is said as a note naming its source.
 */
final class ProfileApplied {

  private final List<FactSource> facts = new ArrayList<>();
  private final List<ProfileFile.BufferProfile> buffers = new ArrayList<>();
  private String source;
  private ProfileFile profile;
  private final List<TimingCheck.Pair> declaredTimings = new ArrayList<>();
  private boolean timings;

  private ProfileApplied() {
  }

  /** The facts the profile gave or confirmed. */
  List<FactSource> facts() {
    return facts;
  }

  /** Whether the timings are the profile's (nanoseconds). */
  boolean timings() {
    return timings;
  }

  /**
   * Reads {@code file} and applies it to {@code loaded}'s graph and scenario (a scenario is made when there is none).
   *
   * @param said told every warning (a contradicted declaration, an actor the graph lacks) and note
   * @return the input as it is now, with what was applied
   */
  static Result apply(LoadedInput loaded, Path file, Consumer<Diagnostic> said) {
    ProfileFile profile = ProfileFileReader.read(file);
    ProfileApplied applied = new ProfileApplied();
    applied.source = String.valueOf(file.getFileName());
    applied.profile = profile;
    if (!profile.graph().equals(loaded.graph().getName())) {
      said.accept(Diagnostic.warning(SourceLocation.file(file), "the profile is of graph " + profile.graph()
          + ", not " + loaded.graph().getName() + ": its actors are matched by path"));
    }
    if (profile.unwrittenDigests() != null) {
      profile.unwrittenDigests().forEach(d -> said.accept(Diagnostic.warning(SourceLocation.file(file), d)));
    }
    Scenario scenario = loaded.scenario() != null ? loaded.scenario() : ModelFactory.eINSTANCE.createScenario();
    for (ProfileFile.ActorProfile measured : profile.actors()) {
      Actor actor = actor(loaded.graph(), measured.actor());
      if (actor == null) {
        said.accept(Diagnostic.warning(SourceLocation.file(file), "the profile's actor " + measured.actor()
            + " is not in the graph: its facts are left out"));
        continue;
      }
      for (ProfileFile.PortProfile port : measured.ports()) {
        applied.annotate(measured.actor(), actor, port, said);
      }
      if (measured.firings() > 0 && measured.time().medianNs() > 0) {
        applied.time(scenario, measured, file);
      }
    }
    if (profile.buffers() != null) {
      for (ProfileFile.BufferProfile buffer : profile.buffers()) {
        applied.buffers.add(buffer);
        applied.facts.add(new FactSource(buffer.fifo(), "re-read after " + Bytes.human(buffer.reReadDistanceBytes())
            + (buffer.sameCore() ? " on the writer's core" : " on another core"), "measured (pre-stored only when "
            + "not re-read soon by its writer)"));
      }
    }
    LoadedInput now = loaded.scenario() != null ? loaded : new LoadedInput(loaded.source(), loaded.graph(), scenario,
        loaded.scenarioFile(), loaded.architecture(), loaded.parameterOverrides(), loaded.projectRoot(),
        loaded.specialVertexOperators());
    long measuredPorts = applied.facts.stream().filter(f -> f.source().startsWith("measured")).count();
    said.accept(Diagnostic.note("profile " + PathText.display(file) + ": " + measuredPorts + " facts measured ("
        + applied.facts.stream().filter(f -> f.source().startsWith("measured") && f.subject().contains("."))
        .map(f -> f.subject() + " " + f.value()).reduce((a, b) -> a + ", " + b).orElse("no annotation")
        + ")" + (applied.timings ? "; actor timings: the profile's medians, in ns" : "")));
    return new Result(now, applied);
  }

  /** The input after a profile, and what the profile gave. */
  record Result(LoadedInput input, ProfileApplied applied) {
  }

  private void annotate(String path, Actor actor, ProfileFile.PortProfile measured, Consumer<Diagnostic> said) {
    Port port = actor.getPorts().stream().filter(p -> p.getName().equals(measured.port())).findFirst().orElse(null);
    if (port == null) {
      return;
    }
    MemoryAnnotation declared = port.getAnnotation() == null ? MemoryAnnotation.NONE : port.getAnnotation();
    MemoryAnnotation seen = MemoryAnnotation.get(measured.measured().toUpperCase(Locale.ROOT));
    String subject = path + "." + port.getName();
    if (seen == null) {
      return;
    }
    if (declared == MemoryAnnotation.NONE) {
      if (seen != MemoryAnnotation.NONE) {
        port.setAnnotation(seen);
        facts.add(new FactSource(subject, seen.getName(), "measured"));
      }
      return;
    }
    boolean writtenInput = measured.input() && seen == MemoryAnnotation.NONE
        && (declared == MemoryAnnotation.READ_ONLY || declared == MemoryAnnotation.UNUSED);
    boolean readOutput = !measured.input() && declared == MemoryAnnotation.WRITE_ONLY
        && measured.readFirstFirings() > 0;
    if (writtenInput || readOutput) {
      port.setAnnotation(MemoryAnnotation.NONE);
      facts.add(new FactSource(subject, "NONE", "measured (declared " + declared.getName() + " contradicted)"));
      said.accept(Diagnostic.warning(new SourceLocation(port.getFile(), port.getLine(), port.getColumn()), subject
          + " is declared " + declared.getName() + " but the profile shows the actor "
          + (writtenInput ? "writing it (in " + Math.max(measured.writtenFirings(), measured.storedFirings()) + " of "
          + measured.firings() + " firings): no copy-on-write there" : "reading it before writing it")
          + "; planned as NONE"));
    } else {
      facts.add(new FactSource(subject, declared.getName(), "declared"));
    }
  }

  private void time(Scenario scenario, ProfileFile.ActorProfile measured, Path file) {
    String relative = measured.actor().substring(measured.actor().indexOf('/') + 1);
    Predicate<Timing> ours = t -> t.getActorPath() != null && (t.getActorPath().equals(
        measured.actor()) || t.getActorPath().equals(relative) || t.getActorPath().endsWith("/" + relative));
    for (Timing declared : scenario.getTimings()) {
      if (ours.test(declared)) {
        TimingCheck.Pair.of(measured.actor(), declared, measured.time().medianNs()).ifPresent(declaredTimings::add);
      }
    }
    scenario.getTimings().removeIf(ours);
    Timing timing = ModelFactory.eINSTANCE.createTiming();
    timing.setActorPath(measured.actor());
    timing.setExpression(Long.toString(Math.max(1, Math.round(measured.time().medianNs()))));
    timing.setFile(file.toString());
    timing.setLine(1);
    timing.setColumn(1);
    scenario.getTimings().add(timing);
    facts.add(new FactSource(measured.actor(), timing.getExpression() + " ns", "measured"));
    timings = true;
  }

  /** The model actor at a flat path ({@code top/sub/actor}), or null. */
  private static Actor actor(Graph top, String path) {
    String[] names = path.split("/");
    Graph graph = top;
    Actor found = null;
    for (int i = names.length > 1 && names[0].equals(top.getName()) ? 1 : 0; i < names.length; i++) {
      if (graph == null) {
        return null;
      }
      String name = names[i];
      found = graph.getActors().stream().filter(a -> name.equals(a.getName())).findFirst().orElse(null);
      if (found == null) {
        return null;
      }
      graph = found.getRefinement() == null ? null : found.getRefinement().getSubgraph();
    }
    return found;
  }

  /**
   * The profile's re-read distances by flat FIFO of {@code flat} (FIFOs named {@code source.port -> target.port} as
   * the profile names them; one the graph lacks is left out).
   */
  MeasuredRereads rereads(FlatGraph flat) {
    Map<String, Long> byName = new HashMap<>();
    buffers.forEach(b -> byName.put(b.fifo(), b.reReadDistanceBytes()));
    Map<Integer, Long> byFifo = new HashMap<>();
    for (FlatFifo fifo : flat.fifos()) {
      Long distance = byName.get(flat.actor(fifo.source()).path() + "." + fifo.sourcePort() + " -> "
          + flat.actor(fifo.target()).path() + "." + fifo.targetPort());
      if (distance != null) {
        byFifo.put(fifo.index(), distance);
      }
    }
    return new MeasuredRereads(byFifo, source);
  }

  /**
   * Where the scenario's timings of the profiled actors and the measured medians disagree by more than
   * {@link TimingCheck#FACTOR}, as warnings at the scenario's lines; each also becomes a fact of the plan report.
   *
   * @param timeUnitNanos nanoseconds per unit of the scenario's timings (the target's {@code timing.ns}), 0 when
   *     unknown: the actors' shares of the total are compared instead
   */
  List<Diagnostic> timingContradictions(double timeUnitNanos) {
    List<Diagnostic> warnings = new ArrayList<>();
    for (TimingCheck.Contradiction c : TimingCheck.contradictions(declaredTimings, timeUnitNanos)) {
      warnings.add(Diagnostic.warning(c.pair().location(), c.message()));
      facts.add(new FactSource(c.pair().actor(), c.fact(), "measured (scenario's timing at "
          + c.pair().location().file().replaceFirst(".*/", "") + ":" + c.pair().location().line()
          + " contradicted)"));
    }
    return warnings;
  }

  /** The sinks with a note after their digest where the profile saw their producer leave bytes unwritten. */
  List<Sink> notedSinks(List<Sink> sinks) {
    Map<String, String> notes = new HashMap<>();
    UnwrittenDigests.of(sinks.stream().map(Sink::label).toList(), profile.actors(), profile.graph())
        .forEach(u -> notes.put(u.sink(), u.note()));
    return sinks.stream().map(s -> notes.containsKey(s.label()) ? s.withNote(notes.get(s.label())) : s).toList();
  }

  /**
   * A hybrid schedule with the profile's cost spreads (each actor's coefficient of variation of its firing times)
   * under the user's: an actor the user named with {@code --variable} or {@code --cost-spread} (by its name or path)
   * keeps what the user said. Other schedules are returned as they are.
   */
  RunSchedule measuredSpread(RunSchedule schedule) {
    if (schedule.kind() != RunSchedule.Kind.HYBRID) {
      return schedule;
    }
    Map<String, Double> measured = new LinkedHashMap<>();
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      boolean named = schedule.variable().stream().anyMatch(n -> ActorNames.names(n, actor.actor()))
          || schedule.spread().keySet().stream().anyMatch(n -> ActorNames.names(n, actor.actor()));
      if (!named && actor.firings() > 1 && actor.time().medianNs() > 0) {
        measured.put(actor.actor(), actor.time().cv());
      }
    }
    Map<String, Double> all = new LinkedHashMap<>(measured);
    all.putAll(schedule.spread());
    return new RunSchedule(schedule.kind(), schedule.variable(), all);
  }

  /** The profile file's name, as the notes cite it. */
  String source() {
    return source;
  }

  /** The target with actor timings in nanoseconds (the profile's). */
  static TargetCache inNanoseconds(TargetCache target) {
    MeasuredCosts c = target.costs();
    return new TargetCache(target.name(), target.l1dBytes(), target.l2Bytes(), target.llcBytes(), target.lineBytes(),
        target.pageBytes(), target.cores(), new MeasuredCosts(c.cowReadOnlyMinBytes(), c.cowReadMostlyMinBytes(),
        c.ntmMinBytes(), c.prestoreMaxBytes(), c.handoffNanos(), c.lineNanos(), 1.0, c.spanningLineNanos(),
        c.figures()), target.memoryBytes());
  }
}
