package org.cacheflow.pipeline;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.cacheflow.io.targetfile.TargetFile;
import org.cacheflow.io.targetfile.TargetFileReader;
import org.cacheflow.io.targetfile.TargetSetting;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * {@link Pipeline#calibrate}: builds runtime-c's calibration program ({@code bench/bench_calibrate.c}) for the
 * toolchain with CMake, runs it here, on a board through the user's command, or under qemu-user, follows its progress
 * lines, and writes the target file it prints once {@link TargetCache#of} accepts it and every measured key is there.
 */
final class Calibration {

  /** The program's name in runtime-c's build. */
  static final String PROGRAM = "bench_calibrate";

  /** Keys every calibration writes; with two CPUs or more also {@link #TWO_CPU_KEYS}. */
  static final List<String> KEYS = List.of("name", "measured.on", "measured.at", "l1d", "l2", "llc", "line", "page",
      "cores", "memory", "memory.gbs", "ntm.min", "cow.readonly.min", "cow.readmostly.min", "prestore.max");
  static final List<String> TWO_CPU_KEYS = List.of("handoff.ns", "transfer.ns");

  private static final Pattern PROGRESS = Pattern.compile("progress: (\\d+)/(\\d+) (.*)");
  private static final Pattern LOAD = Pattern.compile("load average at start: (\\S+ \\S+ \\S+)");

  /**
   * Run on the board: the binary arrives on standard input, goes to a temporary file, runs, and is removed. One
   * argument of the user's command, which a shell on the board runs ({@code ssh HOST SCRIPT} does).
   */
  static final String REMOTE_SCRIPT = "f=$(mktemp) && cat > \"$f\" && chmod +x \"$f\" && { \"$f\" %s; s=$?; "
      + "rm -f \"$f\"; exit $s; }";

  private final PipelineListener listener;
  private final CalibrateOptions options;

  Calibration(PipelineListener listener, CalibrateOptions options) {
    this.listener = listener;
    this.options = options;
  }

  CalibrateResult run() {
    Path build = null;
    try {
      if (options.runWith() != null) {
        probe();
      }
      build = Files.createTempDirectory("cacheflow-calibrate");
      Path program = build(build);
      String text = measure(program);
      return write(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(build);
    }
  }

  /** What {@code uname -m} prints on each toolchain's boards. */
  private static final Map<String, List<String>> MACHINES = Map.of("native", List.of(), "aarch64",
      List.of("aarch64", "arm64"), "armhf", List.of("armv7l", "armv8l", "aarch64", "arm64"), "riscv64",
      List.of("riscv64"));

  /**
   * Before building: reaches the board ({@code uname -m}), so that an unreachable board or one of another
   * architecture is reported at once. A native toolchain only needs the board to be reached; an aarch64 board may
   * run armhf programs (when its kernel has 32-bit support: the run then tells).
   */
  private void probe() {
    listener.step("reaching the board (" + options.runWith() + ")");
    Outcome reached = Outcome.of(List.of("sh", "-c", options.runWith() + " \"$1\"", "sh", "uname -m"), null, null);
    if (reached.status() == 255 || reached.status() == Outcome.NOT_STARTED) {
      throw new CalibrationException(failure(reached, "the board"));
    }
    if (reached.status() != 0) {
      throw new CalibrationException("the board did not run 'uname -m' through '" + options.runWith()
          + "' (exit status " + reached.status() + ")" + (reached.tail().isEmpty() ? "" : ":\n" + reached.tail()));
    }
    String machine = reached.out().strip();
    List<String> expected = MACHINES.get(options.toolchain());
    if (!expected.isEmpty() && !expected.contains(machine)) {
      throw new CalibrationException("the board is " + machine + ": a program built for " + options.toolchain()
          + " cannot run on it (choose the board's --toolchain: " + String.join(", ", CalibrateOptions.TOOLCHAINS)
          + ")");
    }
  }

  private Path build(Path dir) throws IOException {
    Path runtime = options.runtime();
    if (!Files.isRegularFile(runtime.resolve("bench").resolve(PROGRAM + ".c"))) {
      throw new CalibrationException("the calibration program was not found in " + runtime + " (expected bench/"
          + PROGRAM + ".c of runtime-c)");
    }
    listener.step("building the calibration program (" + options.toolchain() + ")");
    List<String> configure = new ArrayList<>(List.of("cmake", "-S", runtime.toString(), "-B", dir.toString(),
        "-DCMAKE_BUILD_TYPE=Release", "-DCF_BUILD_TESTS=OFF", "-DCF_BUILD_BENCH=ON"));
    if (options.triple() != null) {
      Path toolchain = runtime.resolve("cmake/toolchains/" + options.triple() + ".cmake");
      configure.add("-DCMAKE_TOOLCHAIN_FILE=" + toolchain.toAbsolutePath());
    }
    Outcome configured = Outcome.of(configure, null, null);
    if (configured.status() != 0) {
      throw new CalibrationException("the calibration program cannot be configured for " + options.toolchain()
          + crossHint() + ":\n" + configured.tail());
    }
    Outcome built = Outcome.of(List.of("cmake", "--build", dir.toString(), "--target", PROGRAM, "-j", "2"), null,
        null);
    if (built.status() != 0) {
      throw new CalibrationException("the calibration program does not build for " + options.toolchain()
          + crossHint() + ":\n" + built.tail());
    }
    return dir.resolve(PROGRAM);
  }

  private String crossHint() {
    return options.triple() == null ? "" : " (Debian packages: gcc-" + options.triple() + " and its libc6-dev cross "
        + "package)";
  }

  private String measure(Path program) throws IOException {
    List<String> arguments = new ArrayList<>();
    if (options.quick() || options.emulate()) {
      arguments.add("--quick");
    }
    List<String> command = new ArrayList<>();
    byte[] input = null;
    String where;
    if (options.runWith() != null) {
      String script = String.format(REMOTE_SCRIPT, String.join(" ", arguments));
      command.addAll(List.of("sh", "-c", options.runWith() + " \"$1\"", "sh", script));
      input = Files.readAllBytes(program);
      where = "the board (" + options.runWith() + ")";
    } else if (options.emulate()) {
      command.addAll(List.of(options.emulator(), "-L", sysroot(), program.toString()));
      command.addAll(arguments);
      where = options.emulator();
    } else {
      command.add(program.toString());
      command.addAll(arguments);
      where = "this machine";
    }
    listener.step("measuring on " + where);
    Outcome ran = Outcome.of(command, input, this::progress);
    listener.done();
    if (ran.status() != 0 || !ran.out().contains("measured.on")) {
      throw new CalibrationException(failure(ran, where));
    }
    return ran.out();
  }

  /** Why a run failed, in the user's terms: not started, not reached, or the program could not run there. */
  private String failure(Outcome ran, String where) {
    String said = ran.tail().isEmpty() ? "" : ":\n" + ran.tail();
    if (ran.status() == Outcome.NOT_STARTED) {
      return "cannot start " + ran.command() + said;
    }
    if (options.runWith() != null && ran.status() == 255) {
      return "the board cannot be reached with '" + options.runWith() + "' (exit status 255)" + said;
    }
    if (ran.status() == 126 || ran.status() == 127 || ran.err().contains("Exec format error")) {
      return "the calibration program, built for " + options.toolchain() + ", cannot run on " + where
          + " (exit status " + ran.status() + "; is the board's architecture " + options.toolchain() + "?)" + said;
    }
    return "the calibration program failed on " + where + " (exit status " + ran.status() + ")" + said;
  }

  private void progress(String line) {
    Matcher m = PROGRESS.matcher(line);
    if (m.matches()) {
      listener.begin(m.group(3) + " (step " + m.group(1) + " of " + m.group(2) + ")", 0);
    }
  }

  /** The cross libc's prefix, which qemu-user needs (-L) to find the target's loader and libraries. */
  private String sysroot() {
    Outcome libc = Outcome.of(List.of(options.triple() + "-gcc", "-print-file-name=libc.so.6"), null, null);
    Path file = Path.of(libc.out().trim());
    if (libc.status() != 0 || !file.isAbsolute()) {
      throw new CalibrationException("cannot find the " + options.toolchain() + " C library" + crossHint());
    }
    return file.getParent().getParent().toString();
  }

  private CalibrateResult write(String text) throws IOException {
    Path out = options.out().toAbsolutePath();
    Files.createDirectories(out.getParent());
    Path staging = Files.createTempFile(out.getParent(), ".calibrate", ".target");
    try {
      Files.writeString(staging, text, StandardCharsets.UTF_8);
      TargetFile file = TargetFileReader.read(staging);
      List<String> missing = new ArrayList<>();
      boolean twoCpus = !"1".equals(value(file, "cores"));
      for (String key : Stream.concat(KEYS.stream(), twoCpus ? TWO_CPU_KEYS.stream() : Stream.empty()).toList()) {
        if (!file.settings().containsKey(key)) {
          missing.add(key);
        }
      }
      if (!missing.isEmpty()) {
        throw new CalibrationException("the calibration program's output lacks " + String.join(", ", missing)
            + ":\n" + text);
      }
      TargetCache.of(file);
      Files.move(staging, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      TargetCache target = TargetCache.of(TargetFileReader.read(out));
      Matcher load = LOAD.matcher(text);
      return new CalibrateResult(out, target, value(file, "measured.on"), load.find() ? load.group(1) : "unknown");
    } catch (InputException e) {
      throw new CalibrationException("the calibration program wrote a target file cacheflow does not accept: "
          + e.describe());
    } finally {
      Files.deleteIfExists(staging);
    }
  }

  private static String value(TargetFile file, String key) {
    Map<String, TargetSetting> settings = file.settings();
    return settings.containsKey(key) ? settings.get(key).value() : null;
  }

  /** Deletes a temporary folder and what it holds; a folder left behind is not an error. */
  static void delete(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary folder left behind is not worth failing the calibration for
    }
  }

  /** A finished process: its exit status and what it printed. */
  record Outcome(String command, int status, String out, String err) {

    /** The status of a command that could not be started. */
    static final int NOT_STARTED = -1;

    /** Runs {@code command}, feeding it {@code input} (or nothing), handing each stderr line to {@code lines}. */
    static Outcome of(List<String> command, byte[] input, Consumer<String> lines) {
      String name = command.get(0);
      Process process;
      try {
        process = new ProcessBuilder(command).start();
      } catch (IOException e) {
        return new Outcome(name, NOT_STARTED, "", e.getMessage());
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      StringBuilder err = new StringBuilder();
      Thread reader = new Thread(() -> copy(process.getInputStream(), out));
      Thread errors = new Thread(() -> lines(process.getErrorStream(), err, lines));
      reader.start();
      errors.start();
      try (OutputStream stdin = process.getOutputStream()) {
        if (input != null) {
          stdin.write(input);
        }
      } catch (IOException e) {
        // the command ended without reading its input: its status and messages say why
      }
      try {
        int status = process.waitFor();
        reader.join();
        errors.join();
        return new Outcome(name, status, out.toString(StandardCharsets.UTF_8), err.toString());
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
        throw new CalibrationException("interrupted while running " + name);
      }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
      try {
        in.transferTo(out);
      } catch (IOException e) {
        // the process ended
      }
    }

    private static void lines(InputStream in, StringBuilder all, Consumer<String> each) {
      try (var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          if (each != null && line.startsWith("progress: ")) {
            each.accept(line);
          } else {
            all.append(line).append('\n');
          }
        }
      } catch (IOException e) {
        // the process ended
      }
    }

    /** The last lines of what it said on stderr (or stdout when stderr is empty), for an error message. */
    String tail() {
      String text = (err.isBlank() ? out : err).strip();
      String[] lines = text.split("\n");
      return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 15), lines.length));
    }
  }
}
