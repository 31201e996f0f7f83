package org.cacheflow.codegen.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.plan.memoryplan.ProgramMemory;

/**
 * One program holding several variants of a graph (one per combination of its dynamic parameters' values, each
 * planned as a graph of its own): every iteration, the configuration actors fire first on one core, the variant their
 * values select is looked up and handed to every other core (a slot per iteration and a rdy-ack flag), and every core
 * runs that variant's schedule for the iteration. While the variant stays the same, iterations overlap as in a
 * program of that variant alone; where it changes, every core completes the previous variant's iterations (a
 * barrier) before any core runs the new one.
 *
 * <p>The variants' buffers share memory: each core allocates one region ({@link #region(int)}), as large as the
 * largest of the variants' buffers on that core, and each variant's buffers (pools included) lie at offsets of their
 * own in it; no buffer there holds data from one iteration to the next and no two variants run at once, so none
 * overwrites what another still needs. The channels' slots share memory likewise: per receiving core one region
 * ({@link #channelRegion(int)}), as large as the largest of the variants' slots there, each variant's channels at
 * offsets of their own ({@link #sharedChannels(int, int)}); entering a variant, the receiving cores reset its channels
 * (empty then) before any core sends. A persistent delay's state, which does carry data to the next iteration, is
 * one buffer every variant shares, outside the regions ({@link #sharedStates()}): its two copies alternate with the
 * program's iterations, and its init refinement runs in the program's first iteration, whichever variant runs it. A
 * variant whose channel carries such a state between two cores ({@link #carriedStates()}; such a channel keeps slots
 * of its own) hands it to the shared state where the program leaves the variant, and takes it from there where the
 * program enters it. The copy-on-write buffers lie in one memory file, each variant's at offsets of their own from
 * its start ({@link #largestCowBuffers()}): every view of a variant is released before the program leaves it, so no
 * view is held while another variant writes the pages it shows. Each variant keeps its own channel objects,
 * copy-on-write buffer and view objects, flags and semaphores, renamed
 * with the prefix {@code cf_vN_} (N from 1), all made once before the first iteration; a variant's flags and
 * semaphores count the iterations that variant has run, so that each variant's synchronisation is the one of a
 * program running that variant alone. The program's memory is {@link #memory()}. Entering a variant runs again the
 * init calls it makes with other arguments than the variant left (init prototypes taking a dynamic parameter).
 * Pipelined schedules, several nodes and synthetic actors are refused.
 *
 * @param frame the program's shared part: every core's region, every variant's buffers (renamed, in the regions),
 *     channels and copy-on-write buffers (renamed), the sinks, and per core its buffers, channel homes and pointers;
 *     no statements
 * @param variants each variant's code model, as built for that variant alone but for the persistent delays' states
 *     (the frame's)
 * @param labels each variant's values ({@code branch=0})
 * @param configurationCore the core the configuration actors fire on (theirs in the first variant)
 * @param configurations the first variant's configuration actor calls, in firing order
 */
public final class VariantProgram {

  /** The names of persistent delays' states in a code model ({@code delayN}). */
  private static final Pattern DELAY_STATE = Pattern.compile("delay[0-9]+");
  /** The prefix of a channel's name before its buffer's ({@code ch_delayN} carries {@code delayN}). */
  private static final String CHANNEL = "ch_";

  /**
   * A persistent delay's state a variant's channel carries from the core of the delay's end to the core of its init
   * (primed with one message of zeros), and the state every variant shares that the channel's messages are handed
   * to and from where the variant changes.
   *
   * @param variant the variant's index
   * @param channel the variant's channel (its name as in the variant alone)
   * @param state the shared state
   */
  public record CarriedState(int variant, Channel channel, StaticBuffer state) {
  }

  private final CodeProject frame;
  private final List<CodeProject> variants;
  private final List<String> labels;
  private final int configurationCore;
  private final List<Statement.ActorCall> configurations;

  private VariantProgram(CodeProject frame, List<CodeProject> variants, List<String> labels, int configurationCore,
      List<Statement.ActorCall> configurations) {
    this.frame = frame;
    this.variants = List.copyOf(variants);
    this.labels = List.copyOf(labels);
    this.configurationCore = configurationCore;
    this.configurations = List.copyOf(configurations);
  }

  public CodeProject frame() {
    return frame;
  }

  public List<CodeProject> variants() {
    return variants;
  }

  public List<String> labels() {
    return labels;
  }

  public int configurationCore() {
    return configurationCore;
  }

  public List<Statement.ActorCall> configurations() {
    return configurations;
  }

  /**
   * The program of the variants, each built alone.
   *
   * @throws IllegalArgumentException (with a message for users) when they cannot be held in one program: synthetic
   *     actors, several nodes, differing digested FIFOs, or no configuration actor
   * @throws IllegalStateException for a pipelined schedule or a persistent delay of other bytes in another variant,
   *     which the caller refuses before
   */
  public static VariantProgram of(List<CodeProject> built, List<String> labels) {
    List<StaticBuffer> states = delayStates(built, labels);
    List<CodeProject> variants = built.stream().map(v -> withoutStates(v, states)).toList();
    CodeProject first = variants.get(0);
    int cores = 0;
    long heapBytes = 0;
    Set<String> headers = new LinkedHashSet<>();
    List<StaticBuffer> buffers = new ArrayList<>();
    List<Channel> channels = new ArrayList<>();
    List<CowBuffer> cows = new ArrayList<>();
    for (int v = 0; v < variants.size(); v++) {
      CodeProject variant = variants.get(v);
      String label = "variant " + (v + 1) + " (" + labels.get(v) + ")";
      if (variant.synthetic() || variant.multiNode()) {
        throw new IllegalArgumentException("a program switching between variants runs real actors on one machine: "
            + (variant.synthetic() ? "synthetic actors" : "several nodes") + " are not supported");
      }
      if (variant.maxSkew() > 0) {
        throw new IllegalStateException(label + " is pipelined");
      }
      if (!variant.sinks().equals(first.sinks())) {
        throw new IllegalArgumentException(label + " digests other FIFOs than variant 1 (" + labels.get(0) + "): "
            + variant.sinks().stream().map(Sink::label).toList() + " against " + first.sinks().stream()
            .map(Sink::label).toList());
      }
      cores = Math.max(cores, variant.cores().size());
      heapBytes += variant.heapBytes();
      headers.addAll(variant.headers());
      String prefix = prefix(v);
      String of = labels.get(v) + ": ";
      variant.channels().forEach(c -> channels.add(new Channel(channels.size(), prefix + c.name(), c.sender(),
          c.receiver(), c.slots(), c.bytes(), c.primed(), of + c.description())));
      variant.cowBuffers().forEach(c -> cows.add(new CowBuffer(cows.size(), prefix + c.name(), c.bytes(), c.views(),
          c.ranges(), c.slots(), of + c.description(), c.writers())));
    }
    List<Long> regions = regionBytes(variants);
    List<Core> frameCores = new ArrayList<>();
    for (int c = 0; c < cores; c++) {
      List<String> pointers = new ArrayList<>();
      List<StaticBuffer> coreBuffers = new ArrayList<>();
      List<Channel> homes = new ArrayList<>();
      String region = region(c);
      int index = c;
      if (variants.stream().anyMatch(v -> core(v, index) != null && core(v, index).buffers().stream()
          .anyMatch(StaticBuffer::allocated))) {
        coreBuffers.add(new StaticBuffer(region, regions.get(c), 1, c, "the buffers of every variant on core " + c
            + ", each variant's at offsets of its own: the largest variant's buffers of this core"));
      }
      for (int v = 0; v < variants.size(); v++) {
        Core core = core(variants.get(v), c);
        if (core != null) {
          String prefix = prefix(v);
          core.pointers().forEach(p -> pointers.add(prefix + p));
          // buffers with an allocation of their own (pools too) are placed in the region, one after the other
          long offset = 0;
          for (StaticBuffer b : core.buffers()) {
            if (b.allocated()) {
              coreBuffers.add(new StaticBuffer(prefix + b.name(), b.bytes(), b.copies(), b.home(), b.description(),
                  region, offset));
              offset += CodeProject.alignedBytes(b);
            }
          }
          if (offset > regions.get(c)) {
            throw new IllegalStateException("variant " + (v + 1) + "'s buffers of core " + c + " take " + offset
                + " bytes, more than the region's " + regions.get(c));
          }
          core.buffers().stream().filter(b -> !b.allocated()).forEach(b -> coreBuffers.add(renamed(prefix, b)));
          core.homes().forEach(h -> homes.add(channels.stream().filter(x -> x.name().equals(prefix + h.name()))
              .findFirst().orElseThrow()));
        }
      }
      for (StaticBuffer state : states) {
        if (state.home() == c) {
          coreBuffers.add(state);
        }
      }
      frameCores.add(new Core(c, pointers, coreBuffers, homes, List.of(), List.of()));
      buffers.addAll(coreBuffers);
    }
    CodeProject frame = new CodeProject(first.graphName(), first.identifier(), first.strategy(), false, false,
        List.of(), List.copyOf(headers), List.of(), buffers, heapBytes, channels, cows, first.sinks(), frameCores);
    int configurationCore = -1;
    List<Statement.ActorCall> configurations = new ArrayList<>();
    for (Core core : first.cores()) {
      for (Statement statement : core.loop()) {
        if (statement instanceof Statement.ActorCall call && configures(call)) {
          if (call.arguments().stream().anyMatch(a -> a instanceof Argument.Data)) {
            throw new IllegalArgumentException("configuration actor " + call.vertex() + " has data ports: a program "
                + "switching between variants fires configuration actors without data ports only");
          }
          configurationCore = configurationCore < 0 ? core.index() : configurationCore;
          configurations.add(call);
        }
      }
    }
    if (configurations.isEmpty()) {
      throw new IllegalArgumentException("no configuration actor fires in the loop of variant 1 (" + labels.get(0)
          + ")");
    }
    return new VariantProgram(frame, variants, labels, configurationCore, configurations);
  }

  /**
   * The persistent delays' states of the variants, each one buffer all variants share (the variants' code names it
   * as the variant alone does): a delay's final tokens of an iteration are the initial tokens of the next iteration
   * whichever variant runs it, so its state lies outside the region a change of variant overwrites and its two copies
   * alternate with the program's iterations. Allocated by the core of the first variant that has it.
   *
   * @throws IllegalStateException when a delay's state has other bytes in another variant (which the caller refuses
   *     before, with the FIFO's location)
   */
  private static List<StaticBuffer> delayStates(List<CodeProject> variants, List<String> labels) {
    List<StaticBuffer> states = new ArrayList<>();
    List<Integer> of = new ArrayList<>();
    for (int v = 0; v < variants.size(); v++) {
      List<StaticBuffer> own = new ArrayList<>(variants.get(v).buffers());
      // a state a channel carries: the shared state is allocated by the core that receives it
      variants.get(v).channels().stream().filter(c -> c.primed() && c.name().startsWith(CHANNEL)
          && DELAY_STATE.matcher(c.name().substring(CHANNEL.length())).matches()).forEach(c -> own.add(
              new StaticBuffer(c.name().substring(CHANNEL.length()), c.bytes(), 2, c.receiver(), c.description())));
      for (StaticBuffer buffer : own) {
        if (!isDelayState(buffer)) {
          continue;
        }
        StaticBuffer known = states.stream().filter(s -> s.name().equals(buffer.name())).findFirst().orElse(null);
        if (known == null) {
          states.add(buffer);
          of.add(v);
        } else if (known.bytes() != buffer.bytes()) {
          // refused with the FIFO's location before the variants are built (the pipeline's VariantDelays)
          int at = of.get(states.indexOf(known));
          throw new IllegalStateException("the " + buffer.description() + " takes " + known.bytes() + " bytes in "
              + "variant " + (at + 1) + " (" + labels.get(at) + ") and " + buffer.bytes() + " bytes in variant "
              + (v + 1) + " (" + labels.get(v) + ")");
        }
      }
    }
    return states;
  }

  /** Whether a buffer is a persistent delay's state (its two copies, {@code delayN}). */
  public static boolean isDelayState(StaticBuffer buffer) {
    return buffer.copies() == 2 && buffer.allocated() && DELAY_STATE.matcher(buffer.name()).matches();
  }

  /** A variant without the delay states the variants share (the program allocates them once). */
  private static CodeProject withoutStates(CodeProject variant, List<StaticBuffer> states) {
    if (states.isEmpty()) {
      return variant;
    }
    List<Core> cores = variant.cores().stream().map(c -> new Core(c.index(), c.pointers(), c.buffers().stream()
        .filter(b -> !isDelayState(b)).toList(), c.homes(), c.init(), c.loop())).toList();
    return new CodeProject(variant.graphName(), variant.identifier(), variant.strategy(), variant.synthetic(),
        variant.barrier(), variant.semaphoreStarts(), variant.headers(), variant.declarations(), variant.buffers()
        .stream().filter(b -> !isDelayState(b)).toList(), variant.heapBytes(), variant.channels(),
        variant.cowBuffers(), variant.sinks(), cores, variant.nodeSplit());
  }

  /**
   * The persistent delays' states the variants' channels carry between cores, per variant in the order of its
   * channels.
   */
  public List<CarriedState> carriedStates() {
    List<CarriedState> carried = new ArrayList<>();
    for (int v = 0; v < variants.size(); v++) {
      for (Channel channel : variants.get(v).channels()) {
        if (channel.primed()) {
          String state = channel.name().substring(CHANNEL.length());
          carried.add(new CarriedState(v, channel, sharedStates().stream().filter(b -> b.name().equals(state))
              .findFirst().orElseThrow(() -> new IllegalStateException("no shared state for " + channel.name()))));
        }
      }
    }
    return carried;
  }

  /** The delay states every variant shares ({@link #delayStates}), as the program allocates them. */
  public List<StaticBuffer> sharedStates() {
    return frame.buffers().stream().filter(VariantProgram::isDelayState).toList();
  }

  /**
   * Per core, the bytes of the region holding every variant's buffers of that core: the largest of the variants'
   * buffers there ({@link CodeProject#bufferBytesPerCore()}), variants never running at the same time.
   */
  public static List<Long> regionBytes(List<CodeProject> variants) {
    List<Long> regions = new ArrayList<>();
    for (CodeProject variant : variants) {
      List<Long> own = variant.bufferBytesPerCore();
      for (int c = 0; c < own.size(); c++) {
        if (c == regions.size()) {
          regions.add(0L);
        }
        regions.set(c, Math.max(regions.get(c), own.get(c)));
      }
    }
    return regions;
  }

  /** Every init statement of a variant (its init prototypes' calls), on any core. */
  private Set<Statement> inits(int variant) {
    Set<Statement> inits = new LinkedHashSet<>();
    variants.get(variant).cores().forEach(c -> inits.addAll(c.init()));
    return inits;
  }

  /**
   * The variants whose start-up runs this init statement of a variant too (the same call with the same arguments,
   * on any core): entering the variant from one of them leaves the actor as the call would.
   */
  public List<Integer> initsAlike(Statement statement) {
    List<Integer> alike = new ArrayList<>();
    for (int v = 0; v < variants.size(); v++) {
      if (inits(v).contains(statement)) {
        alike.add(v);
      }
    }
    return alike;
  }

  /**
   * Whether entering a variant from another runs init statements again on some core: one of its init calls is not
   * made, with the same arguments, by every other variant (an init prototype taking a dynamic parameter).
   */
  public boolean reinitializes(int variant) {
    return inits(variant).stream().anyMatch(s -> initsAlike(s).size() < variants.size());
  }

  /**
   * The channels of a variant that share their slots' memory with the other variants' (all but primed ones, whose
   * initial tokens must outlive a change of variant), received by a core, renamed as in {@link #frame()}.
   */
  public List<Channel> sharedChannels(int variant, int core) {
    String prefix = prefix(variant);
    return variants.get(variant).channels().stream().filter(c -> !c.primed() && c.receiver() == core)
        .map(c -> frame.channels().stream().filter(x -> x.name().equals(prefix + c.name())).findFirst().orElseThrow())
        .toList();
  }

  /** Whether a variant has channels sharing their slots' memory ({@link #sharedChannels(int, int)}) on any core. */
  public boolean sharesChannels(int variant) {
    return variants.get(variant).channels().stream().anyMatch(c -> !c.primed());
  }

  /** The cores receiving channels that share their slots' memory, in index order. */
  public List<Integer> channelCores() {
    return frame.cores().stream().map(Core::index).filter(c -> frame.channels().stream().anyMatch(x -> !x.primed()
        && x.receiver() == c)).toList();
  }

  /** The name of the region holding every variant's shared channel slots received by a core. */
  public static String channelRegion(int core) {
    return "cf_variant_channels" + core;
  }

  /**
   * The memory of the program: as {@link CodeProject#memory()} of {@link #frame()}, but with the channels' slots
   * shared as the buffers are: per receiving core, only those of the variant whose shared channels there take the
   * most bytes ({@link CodeProject#channelBytesPerCore()}), plus every primed channel; and the copy-on-write buffers
   * of the variant whose copy-on-write buffers take the most bytes ({@link #largestCowBuffers()}).
   */
  public ProgramMemory memory() {
    List<Channel> counted = new ArrayList<>(frame.channels().stream().filter(Channel::primed).toList());
    counted.addAll(largestSharedChannels());
    return frame.withChannels(counted).withCowBuffers(largestCowBuffers()).memory();
  }

  /**
   * The copy-on-write buffers of the variant whose copy-on-write buffers take the most bytes
   * ({@link CowBuffer#totalBytes()}), renamed as in {@link #frame()}: every variant's lie in one memory file, each
   * variant's at offsets of their own from its start, so the file is as large as the largest variant's.
   */
  public List<CowBuffer> largestCowBuffers() {
    List<List<CowBuffer>> each = new ArrayList<>();
    for (int v = 0; v < variants.size(); v++) {
      String prefix = prefix(v);
      each.add(variants.get(v).cowBuffers().stream().map(c -> frame.cowBuffers().stream()
          .filter(x -> x.name().equals(prefix + c.name())).findFirst().orElseThrow()).toList());
    }
    return largestOf(each, CowBuffer::totalBytes);
  }

  /** The bytes of the copy-on-write buffers as {@link #memory()} counts them: the largest variant's. */
  public long sharedCowBytes() {
    return sum(largestCowBuffers(), CowBuffer::totalBytes);
  }

  /**
   * The bytes of the channel slots the variants share (as {@link #memory()} counts them): per receiving core, the
   * largest of the variants' there.
   */
  public long sharedChannelBytes() {
    return sum(largestSharedChannels(), Channel::slotBytes);
  }

  /** Per receiving core, the shared channels of the variant whose shared channels there take the most bytes. */
  private List<Channel> largestSharedChannels() {
    List<Channel> counted = new ArrayList<>();
    for (Core core : frame.cores()) {
      List<List<Channel>> each = new ArrayList<>();
      for (int v = 0; v < variants.size(); v++) {
        each.add(sharedChannels(v, core.index()));
      }
      counted.addAll(largestOf(each, Channel::slotBytes));
    }
    return counted;
  }

  /** Of lists of the variants' objects, the one whose objects take the most bytes in all (the first of equals). */
  private static <T> List<T> largestOf(List<List<T>> lists, ToLongFunction<T> bytes) {
    List<T> largest = List.of();
    long largestBytes = -1;
    for (List<T> list : lists) {
      long all = sum(list, bytes);
      if (all > largestBytes) {
        largest = list;
        largestBytes = all;
      }
    }
    return largest;
  }

  private static <T> long sum(List<T> objects, ToLongFunction<T> bytes) {
    return objects.stream().mapToLong(bytes).reduce(0, ProgramMemory::saturatedAdd);
  }

  /**
   * Whether a variant's cores meet after every iteration (the baseline's and {@code preesm}'s barrier, a
   * {@code pthread_barrier_t} as in PREESM's code).
   */
  public boolean meetsEveryIteration() {
    return variants.stream().anyMatch(CodeProject::barrier);
  }

  /** The name of the region holding every variant's buffers of a core. */
  public static String region(int core) {
    return "cf_variant_buffers" + core;
  }

  /** Whether an actor call is a configuration actor's (it sets dynamic parameters). */
  public static boolean configures(Statement statement) {
    return statement instanceof Statement.ActorCall call
        && call.arguments().stream().anyMatch(a -> a instanceof Argument.ParamOut);
  }

  /** The core of that index in a variant, or null when the variant runs on fewer cores. */
  public static Core core(CodeProject variant, int index) {
    return index < variant.cores().size() ? variant.cores().get(index) : null;
  }

  /** The config outputs the configuration actors write, in firing order. */
  public List<Argument.ParamOut> parameters() {
    List<Argument.ParamOut> outputs = new ArrayList<>();
    for (Statement.ActorCall call : configurations) {
      call.arguments().stream().filter(Argument.ParamOut.class::isInstance).map(Argument.ParamOut.class::cast)
          .forEach(outputs::add);
    }
    return outputs;
  }

  /**
   * Per variant, the value it was planned for of each of {@link #parameters()}, in the same order.
   *
   * @throws IllegalStateException when a variant has no such configuration output
   */
  public List<List<Long>> planned() {
    List<List<Long>> rows = new ArrayList<>();
    for (CodeProject variant : variants) {
      List<Long> row = new ArrayList<>();
      for (Argument.ParamOut output : parameters()) {
        row.add(variant.cores().stream().flatMap(c -> c.loop().stream()).filter(VariantProgram::configures)
            .flatMap(s -> ((Statement.ActorCall) s).arguments().stream()).filter(Argument.ParamOut.class::isInstance)
            .map(Argument.ParamOut.class::cast).filter(p -> p.actor().equals(output.actor())
                && p.name().equals(output.name())).findFirst().orElseThrow(() -> new IllegalStateException(
                    "no configuration output " + output.actor() + "." + output.name() + " in a variant")).planned()
            .get(0));
      }
      rows.add(row);
    }
    return rows;
  }

  /** The prefix of a variant's names: {@code cf_v1_} for the first. */
  public static String prefix(int variant) {
    return "cf_v" + (variant + 1) + "_";
  }

  /**
   * C text printed for a variant alone, with the names of that variant's objects (buffers, channels, copy-on-write
   * buffers and their views, flags, semaphores, pointers) given its prefix.
   */
  public String rename(int variant, CharSequence text) {
    CodeProject project = variants.get(variant);
    Set<String> names = new LinkedHashSet<>();
    project.buffers().forEach(b -> names.add(b.name()));
    project.channels().forEach(c -> names.add(c.name()));
    project.cowBuffers().forEach(c -> {
      names.add(c.name());
      names.add(c.name() + "_views");
    });
    project.flags().forEach(f -> names.add("cf_flag_" + f.from() + "_to_" + f.to()));
    project.cores().forEach(c -> names.addAll(c.pointers()));
    names.add("cf_semaphores");
    List<String> alternatives = names.stream().sorted((a, b) -> b.length() - a.length()).map(Pattern::quote)
        .toList();
    Pattern pattern = Pattern.compile("(?<![A-Za-z0-9_])(?:" + String.join("|", alternatives) + ")(?![A-Za-z0-9_])");
    return pattern.matcher(text).replaceAll(m -> Matcher.quoteReplacement(prefix(variant) + m.group()));
  }

  private static StaticBuffer renamed(String prefix, StaticBuffer buffer) {
    return new StaticBuffer(prefix + buffer.name(), buffer.bytes(), buffer.copies(), buffer.home(),
        buffer.description(), buffer.pool() == null ? null : prefix + buffer.pool(), buffer.offset());
  }
}
