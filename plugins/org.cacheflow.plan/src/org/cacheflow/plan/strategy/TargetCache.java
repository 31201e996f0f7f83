package org.cacheflow.plan.strategy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

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
 * baseline core: 32 KiB L1D, 256 KiB L2, 8 MiB L3, 4 cores). A target file ({@link #read}) is either
 * {@code key = value} lines or one flat JSON object with the same keys:
 *
 * <pre>
 * # comment
 * base = zen4-vm          # start from a built-in profile (default: generic)
 * name = my-board
 * l1d = 32K               # sizes: bytes, or with K/KiB, M/MiB, G/GiB (powers of 1024)
 * l2 = 1M
 * llc = 32M
 * line = 64
 * page = 4K
 * cores = 2
 * cow.readonly.min = 64K  # break-even sizes (see MeasuredCosts)
 * cow.readmostly.min = 256K
 * ntm.min = 1M
 * prestore.max = 4K
 * handoff.ns = 400        # cost of one cross-core hand-off (see MeasuredCosts)
 * transfer.ns = 3         # cost of one cache line of a cross-core buffer, pulled or taken back (see MeasuredCosts)
 * transfer.spanning.ns = 0.5 # the same for a merge group whose slots span the L2 (see MeasuredCosts)
 * timing.ns = 0.4         # nanoseconds per unit of the scenario's actor timings (0: unknown)
 * </pre>
 *
 * @param name profile name
 * @param l1dBytes L1 data cache per core
 * @param l2Bytes L2 per core (private)
 * @param llcBytes last-level cache, shared by all cores
 * @param lineBytes cache line
 * @param pageBytes memory page (copy-on-write granularity)
 * @param cores cores a plan uses when neither an architecture nor {@code --cores} says
 * @param costs the break-even sizes measured on this target
 */
public record TargetCache(String name, long l1dBytes, long l2Bytes, long llcBytes, long lineBytes, long pageBytes,
    int cores, MeasuredCosts costs) {

  public static final TargetCache ZEN4_VM =
      new TargetCache("zen4-vm", 32L << 10, 1L << 20, 32L << 20, 64, 4096, 2, MeasuredCosts.MEASURED);
  public static final TargetCache SAPPHIRE_RAPIDS_VM =
      new TargetCache("sapphire-rapids-vm", 48L << 10, 2L << 20, 105L << 20, 64, 4096, 2, MeasuredCosts.MEASURED);
  public static final TargetCache GENERIC =
      new TargetCache("generic", 32L << 10, 256L << 10, 8L << 20, 64, 4096, 4, MeasuredCosts.MEASURED);

  /** The built-in profiles by name. */
  public static final Map<String, TargetCache> BUILT_IN;

  static {
    Map<String, TargetCache> builtIn = new LinkedHashMap<>();
    for (TargetCache target : List.of(ZEN4_VM, GENERIC, SAPPHIRE_RAPIDS_VM)) {
      builtIn.put(target.name(), target);
    }
    BUILT_IN = java.util.Collections.unmodifiableMap(builtIn);
  }

  public TargetCache {
    if (l1dBytes <= 0 || l2Bytes <= 0 || llcBytes <= 0 || lineBytes <= 0 || pageBytes <= 0 || cores <= 0) {
      throw new IllegalArgumentException("cache sizes and core count must be positive");
    }
  }

  /** A one-line description of the caches: {@code zen4-vm: L1D 32 KiB, L2 1 MiB, LLC 32 MiB, 64 B lines, 4 KiB pages}. */
  public String describe() {
    return name + ": L1D " + Bytes.human(l1dBytes) + ", L2 " + Bytes.human(l2Bytes) + ", LLC "
        + Bytes.human(llcBytes) + ", " + lineBytes + " B lines, " + Bytes.human(pageBytes) + " pages";
  }

  /**
   * A built-in profile by name, or a target file.
   *
   * @throws InputException for a file that cannot be read or has a bad key or value (with its location)
   */
  public static TargetCache resolve(String nameOrFile) {
    TargetCache builtIn = BUILT_IN.get(nameOrFile);
    if (builtIn != null) {
      return builtIn;
    }
    Path file = Path.of(nameOrFile);
    if (!Files.exists(file)) {
      throw new InputException(SourceLocation.file(file), "no such target file, and no built-in target of that "
          + "name (built-in: " + String.join(", ", BUILT_IN.keySet()) + ")");
    }
    return read(file);
  }

  /** Reads a target file (key = value lines or a flat JSON object). */
  public static TargetCache read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new InputException(SourceLocation.file(file), "cannot read target file: " + e.getMessage());
    }
    Map<String, Setting> settings = text.stripLeading().startsWith("{") ? parseJson(file, text)
        : parseKeyValues(file, text);
    return build(file, settings);
  }

  /** A key's value and where it was written. */
  record Setting(String value, SourceLocation location) {
  }

  private static Map<String, Setting> parseKeyValues(Path file, String text) {
    Map<String, Setting> settings = new LinkedHashMap<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      String content = hash >= 0 ? line.substring(0, hash) : line;
      if (content.isBlank()) {
        continue;
      }
      int column = 1 + (content.length() - content.stripLeading().length());
      int equals = content.indexOf('=');
      if (equals < 0) {
        throw new InputException(SourceLocation.of(file, i + 1, column),
            "expected 'key = value', got '" + content.trim() + "'");
      }
      String key = content.substring(0, equals).trim();
      String value = content.substring(equals + 1).trim();
      int valueColumn = equals + 2 + (content.substring(equals + 1).length()
          - content.substring(equals + 1).stripLeading().length());
      if (settings.containsKey(key)) {
        throw new InputException(SourceLocation.of(file, i + 1, column), "'" + key + "' is set twice (first at "
            + settings.get(key).location() + ")");
      }
      settings.put(key, new Setting(value, SourceLocation.of(file, i + 1, valueColumn)));
    }
    return settings;
  }

  private static final List<String> KEYS = List.of("base", "name", "l1d", "l2", "llc", "line", "page", "cores",
      "cow.readonly.min", "cow.readmostly.min", "ntm.min", "prestore.max", "handoff.ns", "transfer.ns",
      "transfer.spanning.ns", "timing.ns");

  private static TargetCache build(Path file, Map<String, Setting> settings) {
    for (Map.Entry<String, Setting> entry : settings.entrySet()) {
      if (!KEYS.contains(entry.getKey())) {
        SourceLocation at = entry.getValue().location();
        throw new InputException(at, "unknown key '" + entry.getKey() + "' (known: " + String.join(", ", KEYS)
            + ")");
      }
    }
    TargetCache base = GENERIC;
    Setting baseSetting = settings.get("base");
    if (baseSetting != null) {
      base = BUILT_IN.get(baseSetting.value());
      if (base == null) {
        throw new InputException(baseSetting.location(), "no built-in target '" + baseSetting.value()
            + "' (built-in: " + String.join(", ", BUILT_IN.keySet()) + ")");
      }
    }
    String name = settings.containsKey("name") ? settings.get("name").value()
        : file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
    MeasuredCosts costs = base.costs();
    costs = new MeasuredCosts(size(settings, "cow.readonly.min", costs.cowReadOnlyMinBytes(), true),
        size(settings, "cow.readmostly.min", costs.cowReadMostlyMinBytes(), true),
        size(settings, "ntm.min", costs.ntmMinBytes(), true), size(settings, "prestore.max", costs.prestoreMaxBytes(),
            true), size(settings, "handoff.ns", costs.handoffNanos(), true),
        number(settings, "transfer.ns", costs.lineNanos()), number(settings, "timing.ns", costs.timeUnitNanos()),
        number(settings, "transfer.spanning.ns", costs.spanningLineNanos()));
    long cores = size(settings, "cores", base.cores(), false);
    if (cores > 4096) {
      throw new InputException(settings.get("cores").location(), "at most 4096 cores, got " + cores);
    }
    return new TargetCache(name, size(settings, "l1d", base.l1dBytes(), false),
        size(settings, "l2", base.l2Bytes(), false), size(settings, "llc", base.llcBytes(), false),
        size(settings, "line", base.lineBytes(), false), size(settings, "page", base.pageBytes(), false), (int) cores,
        costs);
  }

  private static long size(Map<String, Setting> settings, String key, long fallback, boolean zeroAllowed) {
    Setting setting = settings.get(key);
    if (setting == null) {
      return fallback;
    }
    long value = parseSize(setting.value(), setting.location(), key);
    if (value < 0 || (value == 0 && !zeroAllowed)) {
      throw new InputException(setting.location(), "'" + key + "' must be " + (zeroAllowed ? "zero or more" : "positive")
          + ", got '" + setting.value() + "'");
    }
    return value;
  }

  /** A number of zero or more, with a fraction allowed. */
  private static double number(Map<String, Setting> settings, String key, double fallback) {
    Setting setting = settings.get(key);
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

  /** {@code 4096}, {@code 32K}, {@code 32 KiB}, {@code 1M}, {@code 1.5MiB} (binary units). */
  static long parseSize(String text, SourceLocation location, String key) {
    String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    long multiplier = 1;
    String[][] suffixes = {{"kib", "1024"}, {"mib", "1048576"}, {"gib", "1073741824"}, {"kb", "1024"},
        {"mb", "1048576"}, {"gb", "1073741824"}, {"k", "1024"}, {"m", "1048576"}, {"g", "1073741824"},
        {"b", "1"}};
    for (String[] suffix : suffixes) {
      if (t.endsWith(suffix[0])) {
        multiplier = Long.parseLong(suffix[1]);
        t = t.substring(0, t.length() - suffix[0].length());
        break;
      }
    }
    try {
      if (t.contains(".")) {
        double value = Double.parseDouble(t) * multiplier;
        if (!Double.isFinite(value) || value > Long.MAX_VALUE / 2) {
          throw new NumberFormatException();
        }
        return Math.round(value);
      }
      return Math.multiplyExact(Long.parseLong(t), multiplier);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new InputException(location, "'" + key + "' expects a size such as 4096, 32K or 1MiB, got '" + text
          + "'");
    }
  }

  /** Where gson's reader is: its {@code toString()} says "JsonReader at line L column C path P". */
  private static final Pattern READER_AT = Pattern.compile(" at line (\\d+) column (\\d+)");

  /**
   * One flat JSON object of string or number values, read by gson's {@link JsonReader}, with the location of
   * every value. Lenient, so a bare value such as {@code 32K} is taken as in the {@code key = value} form.
   */
  private static Map<String, Setting> parseJson(Path file, String text) {
    Map<String, Setting> settings = new LinkedHashMap<>();
    JsonReader reader = new JsonReader(new StringReader(text));
    reader.setStrictness(Strictness.LENIENT);
    String expected = "expected '{'";
    try {
      reader.beginObject();
      while (true) {
        expected = "expected ',' or '}' in the target object";
        if (!reader.hasNext()) {
          break;
        }
        expected = "expected a key in quotes";
        SourceLocation keyAt = location(file, text, reader);
        String key = reader.nextName();
        expected = "expected a value";
        JsonToken token = reader.peek();
        SourceLocation valueAt = location(file, text, reader);
        String value = switch (token) {
          case STRING, NUMBER -> reader.nextString();
          case BOOLEAN -> String.valueOf(reader.nextBoolean());
          case NULL -> {
            reader.nextNull();
            yield "null";
          }
          default -> throw new InputException(valueAt, "expected a string or a number for '" + key + "'");
        };
        if (settings.containsKey(key)) {
          throw new InputException(keyAt, "'" + key + "' is set twice");
        }
        settings.put(key, new Setting(value, valueAt));
      }
      reader.endObject();
      expected = "unexpected text after the target object";
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new InputException(location(file, text, reader), expected);
      }
    } catch (IOException | IllegalStateException e) {
      throw new InputException(location(file, text, reader), expected, e);
    }
    return settings;
  }

  /** Where the reader is; at a quoted key or value, the opening quote (gson has just read past it). */
  private static SourceLocation location(Path file, String text, JsonReader reader) {
    Matcher at = READER_AT.matcher(reader.toString());
    if (!at.find()) {
      return SourceLocation.file(file);
    }
    int line = Integer.parseInt(at.group(1));
    int column = Integer.parseInt(at.group(2));
    String[] lines = text.split("\n", -1);
    if (column > 1 && line <= lines.length && column - 2 < lines[line - 1].length()
        && "\"'".indexOf(lines[line - 1].charAt(column - 2)) >= 0) {
      column--;
    }
    return SourceLocation.of(file, line, column);
  }
}
