package org.cacheflow.plan.strategy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.io.targetfile.TargetFile;
import org.cacheflow.io.targetfile.TargetFileReader;
import org.cacheflow.io.targetfile.TargetSetting;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * The cache hierarchy a plan is made for: per-core L1 data and L2 sizes, the shared last-level cache, line
 * and page size, the number of cores, and the break-even sizes measured on it.
 *
 * <p>
 * Built-in profiles: {@code zen4-vm} (this project's machine: KVM guest on AMD EPYC Zen 4, 32 KiB L1D, 1 MiB
 * L2 per core, 32 MiB shared L3, 64-byte lines, 2 cores), {@code sapphire-rapids-vm} (where the runtime's
 * benchmarks ran: 48 KiB L1D, 2 MiB L2, 105 MiB L3, 2 cores) and {@code generic} (the copy-on-write paper's
 * baseline core: 32 KiB L1D, 256 KiB L2, 8 MiB L3, 4 cores). Another target is a target file: read by
 * {@link TargetFileReader} (its format is documented there) and given meaning here by {@link #of(TargetFile)}.
 * {@code cacheflow calibrate} writes one from measurements, with three keys of record that plans do not use:
 * {@code measured.on} and {@code measured.at} (where and when) and {@code memory.gbs} (bandwidth, a number).
 *
 * @param name profile name
 * @param l1dBytes L1 data cache per core
 * @param l2Bytes L2 per core (private)
 * @param llcBytes last-level cache, shared by all cores
 * @param lineBytes cache line
 * @param pageBytes memory page (copy-on-write granularity)
 * @param cores cores a plan uses when neither an architecture nor {@code --cores} says
 * @param costs the break-even sizes measured on this target, with the benchmark figures behind them (a target
 *     file that sets a break-even size of its own has none: {@link MeasuredCosts#figures()} null)
 * @param memoryBytes the memory a program may use on the target ({@code memory}), which {@code generate} checks
 *     a program against before writing it; 0 when unknown (no check)
 */
public record TargetCache(String name, long l1dBytes, long l2Bytes, long llcBytes, long lineBytes, long pageBytes,
    int cores, MeasuredCosts costs, long memoryBytes) {

  public static final TargetCache ZEN4_VM =
      new TargetCache("zen4-vm", 32L << 10, 1L << 20, 32L << 20, 64, 4096, 2, MeasuredCosts.MEASURED, 24L << 30);
  public static final TargetCache SAPPHIRE_RAPIDS_VM =
      new TargetCache("sapphire-rapids-vm", 48L << 10, 2L << 20, 105L << 20, 64, 4096, 2, MeasuredCosts.MEASURED,
          24L << 30);
  public static final TargetCache GENERIC =
      new TargetCache("generic", 32L << 10, 256L << 10, 8L << 20, 64, 4096, 4, MeasuredCosts.MEASURED, 4L << 30);

  /** The built-in profiles by name. */
  public static final Map<String, TargetCache> BUILT_IN;

  static {
    Map<String, TargetCache> builtIn = new LinkedHashMap<>();
    for (TargetCache target : List.of(ZEN4_VM, GENERIC, SAPPHIRE_RAPIDS_VM)) {
      builtIn.put(target.name(), target);
    }
    BUILT_IN = Collections.unmodifiableMap(builtIn);
  }

  public TargetCache {
    if (l1dBytes <= 0 || l2Bytes <= 0 || llcBytes <= 0 || lineBytes <= 0 || pageBytes <= 0 || cores <= 0
        || memoryBytes < 0) {
      throw new IllegalArgumentException("cache sizes and core count must be positive");
    }
  }

  /** A target whose memory is unknown (programs are not checked against it). */
  public TargetCache(String name, long l1dBytes, long l2Bytes, long llcBytes, long lineBytes, long pageBytes,
      int cores, MeasuredCosts costs) {
    this(name, l1dBytes, l2Bytes, llcBytes, lineBytes, pageBytes, cores, costs, 0);
  }

  /** The same target with {@code bytes} of memory for programs ({@code --max-memory}). */
  public TargetCache withMemory(long bytes) {
    return new TargetCache(name, l1dBytes, l2Bytes, llcBytes, lineBytes, pageBytes, cores, costs, bytes);
  }

  /** A one-line description of the caches: {@code zen4-vm: L1D 32 KiB, L2 1 MiB, LLC 32 MiB, 64 B lines, 4 KiB pages}.
   * */
  public String describe() {
    return name + ": L1D " + Bytes.human(l1dBytes) + ", L2 " + Bytes.human(l2Bytes) + ", LLC "
        + Bytes.human(llcBytes) + ", " + lineBytes + " B lines, " + Bytes.human(pageBytes) + " pages";
  }

  /** The built-in profile of that name, if there is one. */
  public static Optional<TargetCache> builtIn(String name) {
    return Optional.ofNullable(BUILT_IN.get(name));
  }

  private static final List<String> KEYS = List.of("base", "name", "l1d", "l2", "llc", "line", "page", "cores",
      "cow.readonly.min", "cow.readmostly.min", "ntm.min", "prestore.max", "handoff.ns", "transfer.ns",
      "transfer.spanning.ns", "timing.ns", "memory", "measured.on", "measured.at", "memory.gbs");

  /**
   * The target a target file describes: its {@code base} profile ({@code generic} if none) with the file's values
   * in place of the base's; named by its {@code name}, else by the file name without its extension.
   *
   * @throws InputException at the setting of an unknown key, an unknown base, or a bad size or number
   */
  public static TargetCache of(TargetFile file) {
    Map<String, TargetSetting> settings = file.settings();
    for (Map.Entry<String, TargetSetting> entry : settings.entrySet()) {
      if (!KEYS.contains(entry.getKey())) {
        SourceLocation at = entry.getValue().location();
        throw new InputException(at, "unknown key '" + entry.getKey() + "' (known: " + String.join(", ", KEYS)
            + ")");
      }
    }
    TargetCache base = GENERIC;
    TargetSetting baseSetting = settings.get("base");
    if (baseSetting != null) {
      base = BUILT_IN.get(baseSetting.value());
      if (base == null) {
        throw new InputException(baseSetting.location(), "no built-in target '" + baseSetting.value()
            + "' (built-in: " + String.join(", ", BUILT_IN.keySet()) + ")");
      }
    }
    String name = settings.containsKey("name") ? settings.get("name").value()
        : file.file().getFileName().toString().replaceFirst("\\.[^.]*$", "");
    MeasuredCosts costs = base.costs();
    costs = new MeasuredCosts(size(settings, "cow.readonly.min", costs.cowReadOnlyMinBytes(), true),
        size(settings, "cow.readmostly.min", costs.cowReadMostlyMinBytes(), true),
        size(settings, "ntm.min", costs.ntmMinBytes(), true), size(settings, "prestore.max", costs.prestoreMaxBytes(),
            true), size(settings, "handoff.ns", costs.handoffNanos(), true),
        number(settings, "transfer.ns", costs.lineNanos()), number(settings, "timing.ns", costs.timeUnitNanos()),
        number(settings, "transfer.spanning.ns", costs.spanningLineNanos()),
        measuredSizes(settings) ? costs.figures() : null);
    number(settings, "memory.gbs", 0); // recorded by calibrate, checked, not planned with (nor measured.on/at)
    long cores = size(settings, "cores", base.cores(), false);
    if (cores > 4096) {
      throw new InputException(settings.get("cores").location(), "at most 4096 cores, got " + cores);
    }
    return new TargetCache(name, size(settings, "l1d", base.l1dBytes(), false),
        size(settings, "l2", base.l2Bytes(), false), size(settings, "llc", base.llcBytes(), false),
        size(settings, "line", base.lineBytes(), false), size(settings, "page", base.pageBytes(), false), (int) cores,
        costs, size(settings, "memory", base.memoryBytes(), false));
  }

  /** Whether a target file keeps its base's break-even sizes, whose benchmark figures reports quote. */
  private static boolean measuredSizes(Map<String, TargetSetting> settings) {
    return !settings.containsKey("cow.readonly.min") && !settings.containsKey("cow.readmostly.min")
        && !settings.containsKey("ntm.min") && !settings.containsKey("prestore.max");
  }

  private static long size(Map<String, TargetSetting> settings, String key, long fallback, boolean zeroAllowed) {
    TargetSetting setting = settings.get(key);
    if (setting == null) {
      return fallback;
    }
    long value = parseSize(setting.value(), setting.location(), key);
    if (value < 0 || (value == 0 && !zeroAllowed)) {
      throw new InputException(setting.location(), "'" + key + "' must be " + (zeroAllowed ? "zero or more"
          : "positive")
          + ", got '" + setting.value() + "'");
    }
    return value;
  }

  /** A number of zero or more, with a fraction allowed. */
  private static double number(Map<String, TargetSetting> settings, String key, double fallback) {
    TargetSetting setting = settings.get(key);
    if (setting == null) {
      return fallback;
    }
    try {
      double value = Double.parseDouble(setting.value().trim());
      if (value >= 0 && Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InputException(setting.location(), "'" + key + "' expects a number of zero or more, such as 0.4, got '"
        + setting.value() + "'");
  }

  /** A size ({@link Bytes#parse}), or the error naming the key and what it expects. */
  static long parseSize(String text, SourceLocation location, String key) {
    try {
      return Bytes.parse(text);
    } catch (NumberFormatException e) {
      throw new InputException(location, "'" + key + "' expects a size such as 4096, 32K or 1MiB, got '" + text
          + "'");
    }
  }
}
