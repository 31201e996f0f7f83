package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.plan.strategy.StrategyPreset;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program holding every variant of a dynamic parameter (the test project's resolution change, widths 8, 16 and 32
 * on 2 cores) stops as a program of one value does, also while its cores wait on the hand-off of the variant: on
 * SIGTERM and when an actor sets preesmStopThreads, it ends (no hang) after whole iterations, every iteration it ran
 * printed the frame the Java model of the actors gives for that iteration's width, and it reports how many ran.
 * The actors of the test project (dynparam.c) sleep in one call (DYNPARAM_SLEEP) so that the other cores wait for
 * them when the signal comes: the configuration actor (the other core waits for the iteration's variant,
 * cf_variant_chosen_N), the sink, on the other core (the configuration core runs ahead until it waits for the slots
 * of the variant ring, cf_variant_read_N, or, where the width changes, at the barrier); or set preesmStopThreads in
 * one call (DYNPARAM_STOP). By default the configuration actor's sleep and stop under auto (one program built);
 * with {@code -Dcacheflow.e2e=full} every case, under auto and preesm.
 */
class DynamicParametersStopTest {

  private static final boolean FULL = "full".equals(System.getProperty("cacheflow.e2e"));
  /** The iteration (call of the actor, counted from 0) in which the actor sleeps or stops the run. */
  private static final int AT = 10;
  /** How long the actor sleeps: the test sends SIGTERM once the actor said it sleeps. */
  private static final int SLEEP_MS = 1500;
  /** The iterations whose variant the configuration core may choose before the slowest core read them. */
  private static final int RING = 64;
  private static final List<Integer> ALWAYS_32 = List.of(32);

  @TempDir
  static Path dir;

  private static List<StrategyPreset> strategies() {
    return FULL ? List.of(StrategyPreset.AUTO, StrategyPreset.PREESM) : List.of(StrategyPreset.AUTO);
  }

  /**
   * SIGTERM while the configuration actor sleeps in iteration AT: the other core has begun that iteration and waits
   * for its variant; the iteration completes on every core and is the last, under every strategy.
   */
  @Test
  void aStopSignalWhileTheOtherCoresWaitForTheIterationsVariantEndsAfterThatIteration() throws Exception {
    DynamicParametersTest.assumeProgramsBuild();
    for (StrategyPreset strategy : strategies()) {
      Run run = run(strategy, ALWAYS_32, "DYNPARAM_SLEEP", "chooseWidth@" + AT + ":" + SLEEP_MS, true);
      run.stoppedBySignal(AT + 1, AT + 1);
    }
  }

  /**
   * preesmStopThreads set by the configuration actor in iteration AT: every other core waits for that iteration's
   * variant, handed over after the actor's call, so that iteration is the last, exit status 0.
   */
  @Test
  void theConfigurationActorSettingPreesmStopThreadsMakesItsIterationTheLast() throws Exception {
    DynamicParametersTest.assumeProgramsBuild();
    for (StrategyPreset strategy : strategies()) {
      Run run = run(strategy, List.of(8, 32, 16), "DYNPARAM_STOP", "chooseWidth@" + AT, false);
      run.stoppedByActor(AT + 1, AT + 1);
    }
  }

  /**
   * SIGTERM while the sink sleeps in iteration AT on the other core. Under auto the configuration core runs on
   * until it waits for the variant ring's slots (at most RING iterations of variants not yet read) or, where the
   * width changes (after 20 iterations of width 32), at the variant's barrier: every iteration it began completes on
   * every core. Under preesm the cores meet after every iteration, so iteration AT is the last.
   */
  @Test
  void aStopSignalWhileTheConfigurationCoreWaitsForTheRingOrAtTheBarrierCompletesTheIterationsBegun()
      throws Exception {
    DynamicParametersTest.assumeProgramsBuild();
    Assumptions.assumeTrue(FULL, "with -Dcacheflow.e2e=full");
    List<Integer> change = new ArrayList<>(Collections.nCopies(20, 32));
    change.addAll(Collections.nCopies(20, 8));
    for (StrategyPreset strategy : strategies()) {
      boolean auto = strategy == StrategyPreset.AUTO;
      assertSinkOnAnotherCore(strategy);
      run(strategy, ALWAYS_32, "DYNPARAM_SLEEP", "frameSink@" + AT + ":" + SLEEP_MS, true)
          .stoppedBySignal(AT + 1, auto ? AT + 1 + RING : AT + 1);
      run(strategy, change, "DYNPARAM_SLEEP", "frameSink@" + AT + ":" + SLEEP_MS, true)
          .stoppedBySignal(AT + 1, auto ? 21 : AT + 1);
      run(strategy, ALWAYS_32, "DYNPARAM_STOP", "frameSink@" + AT, false)
          .stoppedByActor(AT + 1, auto ? AT + 1 + RING : AT + 1);
    }
  }

  /** The test of the configuration core's waits needs the sink on the other core (the program's mapping). */
  private static void assertSinkOnAnotherCore(StrategyPreset strategy) throws Exception {
    Path out = program(strategy).getParent().getParent();
    assertTrue(Files.readString(out.resolve("core_0.c")).contains("chooseWidth(")
        && Files.readString(out.resolve("core_1.c")).contains("frameSink("), "the configuration actor on core 0 and "
        + "the sink on core 1 under " + strategy.label);
  }

  /** The program of widths 8, 16 and 32 on 2 cores under the strategy (DynamicParametersTest builds the same). */
  private static Path program(StrategyPreset strategy) throws Exception {
    return DynamicParametersTest.variants(DynamicParametersTest.RESOLUTION, "dynres", "width", "8,16,32", 2, strategy,
        "").binary();
  }

  /**
   * Runs the program (a million iterations asked, --time) with the configuration actor setting {@code widths} (one
   * per iteration, repeated) and the test switch {@code variable}; with {@code signal}, sends SIGTERM once the
   * actor said it sleeps. Fails when the program does not end within a minute.
   */
  private static Run run(StrategyPreset strategy, List<Integer> widths, String variable, String value,
      boolean signal) throws Exception {
    Path binary = program(strategy);
    String name = strategy.label + " " + variable + "=" + value + " widths " + widths;
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--iterations", "1000000", "--time")
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("CACHEFLOW_NO_PIN", "1");
    builder.environment().put("DYNRES_WIDTHS", String.join(",", widths.stream().map(String::valueOf).toList()));
    builder.environment().put(variable, value);
    Process process = builder.start();
    try {
      if (signal) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(err, StandardCharsets.UTF_8).contains(" sleeps ")) {
          assertTrue(process.isAlive() && System.nanoTime() < deadline, name + ": the actor never slept: "
              + Files.readString(err, StandardCharsets.UTF_8));
          Thread.sleep(10);
        }
        Thread.sleep(100); // the other cores reach their wait (microseconds of work)
        process.destroy(); // SIGTERM
      }
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), name + ": the program hangs after the stop");
    } finally {
      process.destroyForcibly();
    }
    return new Run(name, widths, process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /** What a run printed and how it ended. */
  private record Run(String name, List<Integer> widths, int status, String out, String err) {

    /** SIGTERM's status and message; between least and most iterations ran, each the model's frame. */
    void stoppedBySignal(int least, int most) {
      assertEquals(128 + 15, status, name + ": ends with SIGTERM's status; stderr:\n" + err);
      Matcher stopped = Pattern.compile("dynres: stopped by SIGTERM after (\\d+) iterations").matcher(err);
      assertTrue(stopped.find(), name + ": " + err);
      assertTrue(err.contains("dynres: SIGTERM: stopping every core at the end of the iteration they agree on"), err);
      ran(Integer.parseInt(stopped.group(1)), least, most);
    }

    /** Exit status 0, no message of a signal; between least and most iterations ran, each the model's frame. */
    void stoppedByActor(int least, int most) {
      assertEquals(0, status, name + ": stderr:\n" + err);
      assertFalse(err.contains("stopped by"), name + ": " + err);
      ran(-1, least, most);
    }

    /** The iterations --time reports (and the signal's message, unless -1) ran, every frame the model's. */
    private void ran(int reported, int least, int most) {
      Matcher time = Pattern.compile("time: [0-9.]+ s for (\\d+) iterations").matcher(out);
      assertTrue(time.find(), name + ": " + out);
      int iterations = Integer.parseInt(time.group(1));
      if (reported >= 0) {
        assertEquals(reported, iterations, name + ": the iterations the message and --time report");
      }
      assertTrue(iterations >= least && iterations <= most, name + ": " + iterations + " iterations ran, expected "
          + least + (least == most ? "" : "-" + most));
      List<String> frames = new ArrayList<>();
      for (int frame = 0; frame < iterations; frame++) {
        int width = widths.get(frame % widths.size());
        frames.add("frame " + frame + ": " + width * DynamicParametersTest.HEIGHT + " "
            + DynamicParametersTest.expectedResolutionHash(frame, width));
      }
      assertEquals(frames, out.lines().filter(l -> l.startsWith("frame ")).toList(), name
          + ": every iteration run, and only those, prints the model's frame");
    }
  }
}
