package org.cacheflow.pipeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatPort;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.io.profile.ProfileFile;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.report.ProfileReport;

/**
 * {@link Pipeline#profile}: generates the program for profiling (every firing between {@code cf_profile_begin} and
 * {@code cf_profile_end}, runtime-c's {@code cacheflow/profile.h}), builds it with CMake, runs it plain (the cost's
 * baseline), then with timing, with canaries and snapshots, and (on one core) with page protection and another
 * canary, and turns what the runs wrote into a {@link ProfileFile}: per actor its time per firing, per port what the
 * firings did, per FIFO its re-read distance, the annotations the run suggests and every declaration it contradicts.
 */
final class Profiling {

  /** The runs, in order; the first is not instrumented. */
  static final List<String> MODES = List.of("plain", "time", "canary", "pages");
  /** The canary of the canary run and of the pages run: a byte written with one is seen by the other. */
  static final Map<String, String> CANARIES = Map.of("canary", "0xa5", "pages", "0x5a");

  private final PipelineListener listener;
  private final ProfileOptions options;
  private final List<Diagnostic> notes = new ArrayList<>();

  Profiling(PipelineListener listener, ProfileOptions options) {
    this.listener = listener;
    this.options = options;
  }

  ProfileResult run() {
    Path out = options.out().toAbsolutePath().normalize();
    GenerateOptions asked = options.generate();
    GenerateOptions generate = new GenerateOptions(asked.input(), asked.platform(), StrategyPreset.BASELINE, null,
        List.of(), asked.target(), false, asked.actorCode(), asked.projectDefaults(), out.resolve("program"),
        asked.runtime(), false, asked.policy(), null);
    GenerateResult generated = new Run(listener).profiled().generate(generate);
    Path root = generated.input().projectRoot();
    if (asked.actorCode().sources() == null && (root == null || !Files.isDirectory(root.resolve("Code/src")))) {
      throw new ProfileException("a profile runs the actors' own code, and " + PathText.display(asked.input().path())
          + " has none (no Code/src): give the folder of their C sources with --sources");
    }
    try {
      Files.createDirectories(out.resolve("runs"));
      Path program = build(generated);
      Map<String, List<JsonObject>> sites = new LinkedHashMap<>();
      List<ProfileFile.RunCost> costs = new ArrayList<>();
      double plain = 0;
      for (String mode : MODES) {
        if (mode.equals("pages") && generated.plannedCores() > 1) {
          said(Diagnostic.note("no page-protection run on " + generated.plannedCores() + " cores (it needs one "
              + "thread): reads before writes, stores that keep a value and the re-read facts are not measured"));
          continue;
        }
        double seconds = runProgram(program, mode, out.resolve("runs").resolve(mode + ".jsonl"));
        if (seconds < 0) {
          continue;
        }
        plain = mode.equals("plain") ? seconds : plain;
        costs.add(new ProfileFile.RunCost(mode, seconds, plain > 0 ? seconds / plain : 1));
        if (!mode.equals("plain")) {
          sites.put(mode, readSites(out.resolve("runs").resolve(mode + ".jsonl")));
        }
      }
      listener.step("writing the profile");
      ProfileFile profile = new ProfileFacts(generated.memoryPlan(), generated.input().graph().getName(),
          options.iterations(), generated.plannedCores(), sites, costs).profile(generated.project().sinks().stream()
          .map(Sink::label).toList());
      ProfileReport.Written written = ProfileReport.write(profile, out,
          generated.memoryPlan().platform().core(0).type());
      listener.done();
      List<Diagnostic> all = new ArrayList<>(generated.diagnostics());
      all.addAll(notes);
      for (String contradiction : written.contradictions()) {
        Diagnostic warning = Diagnostic.warning(null, contradiction);
        all.add(warning);
        listener.diagnostic(warning);
      }
      for (String digest : profile.unwrittenDigests()) {
        Diagnostic warning = Diagnostic.warning(null, digest);
        all.add(warning);
        listener.diagnostic(warning);
      }
      List<String> findings = new ArrayList<>(written.contradictions());
      findings.addAll(profile.unwrittenDigests());
      findings.addAll(written.suggestions());
      return new ProfileResult(profile, written.json(), written.markdown(), findings, all);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A note or warning of the profile's own: to the listener now, in the result's diagnostics later. */
  private void said(Diagnostic diagnostic) {
    notes.add(diagnostic);
    listener.diagnostic(diagnostic);
  }

  private Path build(GenerateResult generated) {
    Path dir = generated.outputDirectory();
    Path build = dir.resolve("build");
    listener.step("building the profiled program");
    Calibration.Outcome configured = Calibration.Outcome.of(List.of("cmake", "-S", dir.toString(), "-B",
        build.toString(), "-DCMAKE_BUILD_TYPE=Release"), null, null);
    if (configured.status() != 0) {
      throw new ProfileException("the profiled program cannot be configured (" + PathText.display(dir) + "):\n"
          + configured.tail());
    }
    Calibration.Outcome built = Calibration.Outcome.of(List.of("cmake", "--build", build.toString(), "-j", "2"), null,
        null);
    if (built.status() != 0) {
      throw new ProfileException("the profiled program does not build (" + PathText.display(dir) + "):\n"
          + built.tail());
    }
    return build.resolve(generated.project().identifier());
  }

  /** Runs the program in a mode; its wall time in seconds, or -1 when the pages run failed (a note says why). */
  private double runProgram(Path program, String mode, Path data) throws IOException {
    listener.step("running the program (" + mode + ", " + options.iterations() + " iterations)");
    ProcessBuilder builder = new ProcessBuilder(program.toString(), "--iterations",
        String.valueOf(options.iterations()));
    builder.directory(program.getParent().toFile());
    Map<String, String> env = builder.environment();
    env.remove("CF_PROFILE");
    if (!mode.equals("plain")) {
      env.put("CF_PROFILE", mode);
      env.put("CF_PROFILE_OUT", data.toString());
      env.put("CF_PROFILE_CANARY", CANARIES.getOrDefault(mode, "0xa5"));
    }
    Path log = data.resolveSibling(mode + ".log");
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    long start = System.nanoTime();
    Process process = builder.start();
    int status;
    try {
      status = process.waitFor();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new ProfileException("interrupted while running the profiled program");
    }
    process.getInputStream().close();
    double seconds = (System.nanoTime() - start) / (double) TimeUnit.SECONDS.toNanos(1);
    if (status != 0) {
      String tail = tail(log);
      if (mode.equals("pages")) {
        said(Diagnostic.warning(null, "the page-protection run failed (exit status " + status + ": an actor "
            + "that hands its buffers to the kernel, e.g. read(2) into an output, fails under protection): the "
            + "profile has no page facts. Its output:\n" + tail));
        return -1;
      }
      throw new ProfileException("the profiled program failed in its " + mode + " run (exit status " + status
          + "):\n" + tail);
    }
    return seconds;
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }

  private static List<JsonObject> readSites(Path data) throws IOException {
    List<JsonObject> sites = new ArrayList<>();
    if (!Files.exists(data)) {
      throw new ProfileException("the profiled program wrote no profile data (" + PathText.display(data) + ")");
    }
    for (String line : Files.readAllLines(data, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        sites.add(JsonParser.parseString(line).getAsJsonObject());
      }
    }
    return sites;
  }

  /** Turns the runs' call sites into the profile's facts. */
  static final class ProfileFacts {

    private final MemoryPlan plan;
    private final String graph;
    private final int iterations;
    private final int cores;
    private final Map<String, List<JsonObject>> sites;
    private final List<ProfileFile.RunCost> costs;
    private final Map<String, Integer> vertices = new HashMap<>();

    ProfileFacts(MemoryPlan plan, String graph, int iterations, int cores, Map<String, List<JsonObject>> sites,
        List<ProfileFile.RunCost> costs) {
      this.plan = plan;
      this.graph = graph;
      this.iterations = iterations;
      this.cores = cores;
      this.sites = sites;
      this.costs = costs;
      Srdag srdag = plan.srdag();
      String top = srdag.flatGraph().name() + "/";
      for (int v = 0; v < srdag.vertexCount(); v++) {
        String name = srdag.vertexName(v);
        vertices.put(name.startsWith(top) ? name.substring(top.length()) : name, v);
      }
    }

    /** The profile; {@code sinks}: the FIFOs {@code --validate} digests, as {@code source.port -> target.port}. */
    ProfileFile profile(List<String> sinks) {
      Srdag srdag = plan.srdag();
      // the actors' sites, per mode, in the order they first fired
      Map<Integer, Map<String, List<JsonObject>>> byActor = new LinkedHashMap<>();
      long pageBytes = 0;
      boolean exact = false;
      for (Map.Entry<String, List<JsonObject>> mode : sites.entrySet()) {
        for (JsonObject site : mode.getValue()) {
          Integer vertex = vertices.get(site.get("vertex").getAsString());
          if (vertex == null || site.get("init").getAsBoolean()) {
            continue;
          }
          if (mode.getKey().equals("pages")) {
            pageBytes = site.get("pageBytes").getAsLong();
            exact = site.get("exactFaults").getAsBoolean();
          }
          byActor.computeIfAbsent(srdag.vertexActor(vertex), k -> new LinkedHashMap<>())
              .computeIfAbsent(mode.getKey(), k -> new ArrayList<>()).add(site);
        }
      }
      List<ProfileFile.ActorProfile> actors = new ArrayList<>();
      for (Map.Entry<Integer, Map<String, List<JsonObject>>> entry : byActor.entrySet()) {
        actors.add(actor(srdag.flatGraph().actor(entry.getKey()), entry.getValue(), exact));
      }
      String granularity = "time: CLOCK_MONOTONIC around each call; bytes written and inputs changed: byte-exact "
          + "(canaries 0xa5 and 0x5a, input snapshots)" + (pageBytes > 0 ? "; reads, reads before writes and stores: "
          + "per page of " + pageBytes + " bytes (mprotect and SIGSEGV" + (exact ? ", the fault's error code" : "")
          + "; ports sharing a page share its first access)" : "; no page-protection run");
      return new ProfileFile(ProfileFile.VERSION, graph, iterations, cores, new ProfileFile.Instrumentation(
          granularity, costs, pageBytes, exact), actors, ReReads.of(plan, sites.get("canary"), vertices),
          unwrittenDigests(sinks, actors));
    }

    /** The sinks whose producer leaves bytes of its output unwritten. */
    private List<String> unwrittenDigests(List<String> sinks, List<ProfileFile.ActorProfile> actors) {
      return UnwrittenDigests.of(sinks, actors, plan.srdag().flatGraph().name()).stream()
          .map(UnwrittenDigests.Unwritten::sentence).toList();
    }

    private ProfileFile.ActorProfile actor(FlatActor actor, Map<String, List<JsonObject>> modes, boolean exact) {
      List<Long> times = new ArrayList<>();
      for (JsonObject site : modes.getOrDefault("time", List.of())) {
        for (JsonElement ns : site.getAsJsonArray("ns")) {
          times.add(ns.getAsLong());
        }
      }
      Map<String, PortTally> ports = new LinkedHashMap<>();
      for (String mode : List.of("canary", "pages")) {
        for (JsonObject site : modes.getOrDefault(mode, List.of())) {
          for (JsonElement element : site.getAsJsonArray("ports")) {
            JsonObject port = element.getAsJsonObject();
            ports.computeIfAbsent(port.get("name").getAsString(), PortTally::new).add(mode, port);
          }
        }
      }
      List<ProfileFile.PortProfile> profiles = new ArrayList<>();
      for (PortTally tally : ports.values()) {
        FlatPort port = actor.port(tally.name);
        MemoryAnnotation declared = port == null || port.annotation() == null ? MemoryAnnotation.NONE
            : port.annotation();
        profiles.add(tally.profile(declared.getName(), exact));
      }
      return new ProfileFile.ActorProfile(actor.path(), times.size(), TimeStatsOf.of(times), profiles);
    }
  }

  /** One port's facts, summed over an actor's call sites and the runs. */
  static final class PortTally {
    final String name;
    boolean input;
    long bytes;
    long firings;
    long changedFirings;
    long changedBytes;
    long writtenBytes;
    long writtenFiringsOut;
    long pageFirings;
    long storedFirings;
    long readFirstFirings;
    long readBytes;
    long touchedBytes;
    boolean changedInPages;
    UnwrittenBytes unwritten;

    PortTally(String name) {
      this.name = name;
    }

    void add(String mode, JsonObject port) {
      input = port.get("input").getAsBoolean();
      bytes = port.get("bytes").getAsLong();
      boolean inplace = port.has("inplace") && port.get("inplace").getAsBoolean();
      if (mode.equals("canary")) {
        firings += port.get("firings").getAsLong();
      }
      if (input && mode.equals("canary")) {
        changedFirings += port.get("changedFirings").getAsLong();
        changedBytes += port.get("changedBytes").getAsLong();
      } else if (input) {
        changedInPages |= port.get("changedFirings").getAsLong() > 0;
      } else if (!inplace && port.has("writtenBytes")) {
        if (mode.equals("canary")) {
          writtenBytes += port.get("writtenBytes").getAsLong();
          writtenFiringsOut += port.get("firings").getAsLong();
        }
        unwritten = UnwrittenBytes.intersect(unwritten, UnwrittenBytes.of(port));
      }
      if (mode.equals("pages")) {
        pageFirings += port.get("pageFirings").getAsLong();
        storedFirings += port.get("storedFirings").getAsLong();
        readFirstFirings += port.get("readFirstFirings").getAsLong();
        readBytes += port.get("readBytes").getAsLong();
        touchedBytes += port.get("touchedBytes").getAsLong();
      }
    }

    ProfileFile.PortProfile profile(String declared, boolean exact) {
      String measured;
      boolean touched = pageFirings == 0 || touchedBytes > 0;
      if (input) {
        boolean written = changedFirings > 0 || changedInPages || storedFirings > 0;
        measured = written ? "NONE" : touched ? "READ_ONLY" : "UNUSED";
      } else if (unwritten != null && unwritten.bytes() == bytes && !touched) {
        measured = "UNUSED";
      } else if (pageFirings > 0 && exact && readFirstFirings == 0) {
        measured = "WRITE_ONLY";
      } else {
        measured = "NONE";
      }
      double written = input ? (firings == 0 ? 0 : changedBytes / (double) firings)
          : (writtenFiringsOut == 0 ? 0 : writtenBytes / (double) writtenFiringsOut);
      return new ProfileFile.PortProfile(name, input, bytes, declared, measured, firings, changedFirings,
          storedFirings, readFirstFirings, written, pageFirings == 0 ? -1 : readBytes / (double) pageFirings,
          unwritten == null ? 0 : unwritten.bytes(), unwritten == null ? List.of() : unwritten.ranges());
    }
  }

  /** Byte ranges [from, to) of an output no firing wrote: each site's, intersected over sites and runs. */
  record UnwrittenBytes(List<List<Long>> ranges, long bytes) {

    static UnwrittenBytes of(JsonObject port) {
      List<List<Long>> ranges = new ArrayList<>();
      for (JsonElement range : port.getAsJsonArray("unwritten")) {
        JsonArray pair = range.getAsJsonArray();
        ranges.add(List.of(pair.get(0).getAsLong(), pair.get(1).getAsLong()));
      }
      long bytes = port.get("unwrittenBytes").getAsLong();
      return new UnwrittenBytes(ranges, bytes);
    }

    /** Bytes unwritten in both (when a side listed only its first ranges, the smaller count). */
    static UnwrittenBytes intersect(UnwrittenBytes a, UnwrittenBytes b) {
      if (a == null) {
        return b;
      }
      List<List<Long>> both = new ArrayList<>();
      long sum = 0;
      int i = 0;
      int j = 0;
      while (i < a.ranges.size() && j < b.ranges.size()) {
        long from = Math.max(a.ranges.get(i).get(0), b.ranges.get(j).get(0));
        long to = Math.min(a.ranges.get(i).get(1), b.ranges.get(j).get(1));
        if (from < to) {
          both.add(List.of(from, to));
          sum += to - from;
        }
        if (a.ranges.get(i).get(1) < b.ranges.get(j).get(1)) {
          i++;
        } else {
          j++;
        }
      }
      long listed = a.ranges.stream().mapToLong(r -> r.get(1) - r.get(0)).sum();
      long listedB = b.ranges.stream().mapToLong(r -> r.get(1) - r.get(0)).sum();
      boolean complete = listed == a.bytes && listedB == b.bytes;
      return new UnwrittenBytes(both, complete ? sum : Math.min(a.bytes, b.bytes));
    }
  }
}
