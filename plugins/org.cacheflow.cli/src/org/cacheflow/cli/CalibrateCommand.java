package org.cacheflow.cli;

import java.nio.file.Path;

import org.cacheflow.pipeline.CalibrateOptions;
import org.cacheflow.pipeline.CalibrateResult;
import org.cacheflow.pipeline.CalibrationException;
import org.cacheflow.pipeline.Pipeline;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cacheflow calibrate}: a target file measured on the board the generated code will run on. */
@Command(name = "calibrate", header = "measure a machine or board and write a target file for plan and generate "
    + "--target", synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ", sortOptions = false,
    description = {"", "Builds the runtime's calibration program (runtime-c/bench/bench_calibrate.c) for the "
        + "toolchain, runs it on the target and writes what it measured as a target file: the cache geometry (the "
        + "board's sysfs, else measured), the flag hand-off and line transfer between two cores, the memory "
        + "bandwidth, and the break-even sizes auto decides with (non-temporal copy, copy-on-write, pre-store), with "
        + "where and when it measured and the figures behind each value as comments. The file is replaced only once "
        + "the measurement succeeded. A shared or busy machine gives provisional figures: the file records the load "
        + "average. See docs/boards.md.", ""},
    optionListHeading = "%noptions:%n")
public final class CalibrateCommand extends CliCommand {

  /** Exit status when the program does not build, the board cannot be reached or the program cannot run there. */
  static final int FAILED = 1;

  @Option(names = "--out", paramLabel = "FILE", description = "the target file to write (replaced)")
  Path outFile;

  @Option(names = "--toolchain", paramLabel = "T", description = "native (default), aarch64, armhf or riscv64: "
      + "what to build the calibration program for (cross targets with Debian's gcc-TRIPLE)")
  String toolchain = "native";

  @Option(names = "--run-with", paramLabel = "COMMAND", description = "run it on a board through COMMAND, which "
      + "gets a shell command line as its last argument and the program on its standard input: e.g. 'ssh "
      + "pi@board' (the board needs sh, mktemp and cat, nothing of cacheflow)")
  String runWith;

  @Option(names = "--emulate", description = "run the cross-built program under qemu-user here (checks the build "
      + "and the file; the figures are the emulator's)")
  boolean emulate;

  @Option(names = "--quick", description = "fewer repetitions and sizes (a first look; always on with --emulate)")
  boolean quick;

  @Override
  public Integer call() {
    if (outFile == null) {
      throw new UsageException("missing --out FILE");
    }
    CalibrateOptions options = new CalibrateOptions(outFile, toolchain, runWith, emulate, quick,
        GenerateCommand.runtimeFolder());
    try {
      CalibrateResult result = new Pipeline(progress()).calibrate(options);
      out.println(result.summary());
      err.println("note: load average " + result.load() + " when the measurement began; on a busy machine the "
          + "figures are provisional");
      return Main.OK;
    } catch (CalibrationException e) {
      err.println("error: " + e.getMessage());
      return FAILED;
    }
  }
}
