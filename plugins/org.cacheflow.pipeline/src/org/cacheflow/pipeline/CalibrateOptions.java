package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What {@link Pipeline#calibrate} measures and where it writes the result.
 *
 * @param out the target file to write (replaced only once the measurement succeeded and the file was accepted)
 * @param toolchain {@code native}, or a cross target: {@code aarch64}, {@code armhf}, {@code riscv64}
 * @param runWith a command that runs a shell command line on the board, given as its last argument, with the
 *     calibration program on its standard input (e.g. {@code ssh pi@board}); null to run it here
 * @param emulate run a cross-built program under qemu-user on this machine (its figures are the emulator's)
 * @param quick fewer repetitions and sizes (for emulators and tests)
 * @param runtime the runtime-c folder to build the calibration program from
 */
public record CalibrateOptions(Path out, String toolchain, String runWith, boolean emulate, boolean quick,
    Path runtime) {

  /** The toolchains, {@code native} first. */
  public static final List<String> TOOLCHAINS = List.of("native", "aarch64", "armhf", "riscv64");

  public CalibrateOptions {
    toolchain = toolchain == null ? "native" : toolchain.toLowerCase(Locale.ROOT);
    if (!TOOLCHAINS.contains(toolchain)) {
      throw new OptionException("--toolchain", "unknown toolchain '" + toolchain + "' (known: "
          + String.join(", ", TOOLCHAINS) + ")");
    }
    if (runWith != null && runWith.isBlank()) {
      throw new OptionException("--run-with", "--run-with needs a command, such as 'ssh pi@board'");
    }
    if (runWith != null && emulate) {
      throw new OptionException("--emulate", "give --run-with or --emulate, not both");
    }
    if (emulate && toolchain.equals("native")) {
      throw new OptionException("--emulate", "--emulate runs a cross target under qemu-user: give --toolchain "
          + "aarch64, armhf or riscv64");
    }
    if (!emulate && runWith == null && !toolchain.equals("native")) {
      throw new OptionException("--toolchain", "a program built for " + toolchain + " cannot run here: give "
          + "--run-with 'ssh USER@BOARD' or --emulate");
    }
  }

  /** The GNU triple of a cross toolchain ({@code runtime-c/cmake/toolchains/TRIPLE.cmake}), null for native. */
  public String triple() {
    return switch (toolchain) {
      case "aarch64" -> "aarch64-linux-gnu";
      case "armhf" -> "arm-linux-gnueabihf";
      case "riscv64" -> "riscv64-linux-gnu";
      default -> null;
    };
  }

  /** The qemu-user program that runs the toolchain's binaries. */
  public String emulator() {
    return "qemu-" + (toolchain.equals("armhf") ? "arm" : toolchain);
  }
}
