package org.cacheflow.bench;

import static org.cacheflow.bench.DemoOutputs.checkDigests;
import static org.cacheflow.bench.DemoOutputs.parseRun;
import static org.cacheflow.bench.DemoProcess.command;
import static org.cacheflow.bench.DemoProcess.onPath;
import static org.cacheflow.bench.DemoReport.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.cacheflow.cli.Progress;

/**
 * The L1D / LLC data misses of one iteration of each measured strategy: with perf's hardware counters when they
 * work, else with cachegrind and the caches given explicitly (on a smaller frame with caches shrunk alike, by
 * default), two simulations at a time; the simulated programs must agree with each other too.
 */
final class DemoMisses {

  private static final Pattern CACHEGRIND_D1 = Pattern.compile("D1\\s+misses:\\s+([0-9,]+)");
  private static final Pattern CACHEGRIND_LLD = Pattern.compile("LLd misses:\\s+([0-9,]+)");

  private DemoMisses() {
  }

  /**
   * Fills the L1D / LLC data misses of one iteration of the simulated strategies; returns how they were
   * measured. The simulated programs must agree with each other (MD5s), and a strategy whose share of the
   * baseline's copies differs between the two frame sizes is planned differently there, which a note says.
   */
  static String measureMisses(DemoSettings settings, Map<String, DemoProgram> programs, Map<String, DemoResult> results,
      List<String> notes, Progress progress) throws IOException {
    Path work = settings.work();
    String perfProblem = perfProblem(work);
    Map<String, DemoResult> simulated = new LinkedHashMap<>();
    String tool;
    if (perfProblem == null) {
      for (DemoProgram program : programs.values()) {
        progress.step("perf stat: " + program.strategy());
        Path log = work.resolve("build").resolve(program.strategy() + ".perf.log");
        Files.deleteIfExists(log);
        String output = command(log, work, null, "perf", "stat", "-x", ",", "-e",
            "L1-dcache-load-misses,LLC-load-misses", "--", program.executable().toString(), "--iterations", "1",
            "--validate");
        DemoResult result = results.get(program.strategy());
        DemoResult run = new DemoResult(program.strategy());
        parseRun(output, run, log);
        simulated.put(program.strategy(), run);
        for (String line : output.split("\n")) {
          String[] fields = line.split(",");
          if (fields.length > 2 && fields[0].matches("[0-9]+")) {
            if (fields[2].startsWith("L1-dcache")) {
              result.l1dMisses = Long.parseLong(fields[0]);
            } else if (fields[2].startsWith("LLC")) {
              result.llcMisses = Long.parseLong(fields[0]);
            }
          }
        }
      }
      tool = "perf stat (hardware counters: L1-dcache-load-misses, LLC-load-misses)";
    } else if (!onPath("valgrind")) {
      return "not measured: " + perfProblem + " and valgrind is not installed";
    } else {
      cachegrind(settings, programs, results, simulated, progress);
      tool = "cachegrind (" + perfProblem + "), caches given explicitly: L1D "
          + cache(settings.simulatedCaches(), "D1").describe() + ", LL " + cache(settings.simulatedCaches(), "LL")
          .describe() + ", " + cache(settings.simulatedCaches(), "D1").lineBytes() + " B lines ("
          + settings.simulatedCaches().stream().map(DemoCache::option).collect(Collectors.joining(" ")) + ")";
    }
    checkDigests(simulated);
    DemoResult simulatedBaseline = simulated.get("baseline");
    DemoResult timedBaseline = results.get("baseline");
    if (simulatedBaseline != null && timedBaseline != null && settings.missScale() > 1) {
      for (DemoResult run : simulated.values()) {
        double small = run.bytesCopied / (double) Math.max(1, simulatedBaseline.bytesCopied);
        DemoResult timed = results.get(run.strategy);
        double full = timed.bytesCopied / (double) Math.max(1, timedBaseline.bytesCopied);
        if (Math.abs(small - full) > 0.01) {
          notes.add(format("%s copies %.0f%% of the baseline's bytes on the %s frame but %.0f%% on the %s frame: it "
              + "is planned differently there, so its misses do not describe the timed program", run.strategy,
              100 * small, settings.missFrame(), 100 * full, settings.frame()));
        }
      }
    }
    String which = programs.size() == results.size() ? "every strategy" : String.join(", ", programs.keySet())
        + " ('-': not simulated, see --miss-strategies)";
    if (settings.missScale() == 1) {
      return tool + "; " + which + ", on the timed " + settings.frame() + " frame";
    }
    int area = settings.missScale() * settings.missScale();
    return tool + "; " + which + ", on a " + settings.missFrame() + " frame (1/" + area + " of the timed one's pixels)"
        + " with the data caches 1/" + area + " of L1D " + cache(settings.caches(), "D1").describe() + ", LL "
        + cache(settings.caches(), "LL").describe() + (perfProblem == null ? " (perf cannot shrink caches: the real"
        + " ones were used)" : "") + ", so that every FIFO keeps its size relative to the caches";
  }

  private static DemoCache cache(List<DemoCache> caches, String level) {
    return caches.stream().filter(c -> c.level().equals(level)).findFirst().orElseThrow();
  }

  private static void cachegrind(DemoSettings settings, Map<String, DemoProgram> programs,
      Map<String, DemoResult> results, Map<String, DemoResult> simulated, Progress progress) throws IOException {
    Path outputs = settings.work().resolve("build/cachegrind");
    Files.createDirectories(outputs);
    // cachegrind runs the program's threads one at a time, so two simulations use the two cores.
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(2,
        Runtime.getRuntime().availableProcessors())));
    try {
      Map<String, Future<String>> pending = new LinkedHashMap<>();
      for (DemoProgram program : programs.values()) {
        String strategy = program.strategy();
        pending.put(strategy, pool.submit(() -> {
          Path log = outputs.resolve(strategy + ".log");
          Files.deleteIfExists(log);
          List<String> argv = new ArrayList<>(List.of("valgrind", "--tool=cachegrind", "--cache-sim=yes"));
          settings.simulatedCaches().forEach(cache -> argv.add(cache.option()));
          argv.addAll(List.of("--cachegrind-out-file=" + outputs.resolve(strategy + ".out"),
              program.executable().toString(), "--iterations", "1", "--validate"));
          return command(log, settings.work(), null, argv.toArray(String[]::new));
        }));
      }
      int done = 0;
      for (Map.Entry<String, Future<String>> entry : pending.entrySet()) {
        progress.step("cachegrind (" + done + "/" + pending.size() + " done, " + settings.missFrame() + "): "
            + entry.getKey());
        String output = entry.getValue().get();
        Path log = outputs.resolve(entry.getKey() + ".log");
        DemoResult run = new DemoResult(entry.getKey());
        parseRun(output, run, log);
        simulated.put(entry.getKey(), run);
        DemoResult result = results.get(entry.getKey());
        result.l1dMisses = cachegrindCount(CACHEGRIND_D1, output, entry.getKey());
        result.llcMisses = cachegrindCount(CACHEGRIND_LLD, output, entry.getKey());
        done++;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoFailure("interrupted while running cachegrind");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof DemoFailure failure) {
        throw failure;
      }
      throw new DemoFailure("cachegrind failed: " + e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static long cachegrindCount(Pattern pattern, String output, String strategy) {
    Matcher matcher = pattern.matcher(output);
    if (!matcher.find()) {
      throw new DemoFailure("cachegrind printed no '" + pattern.pattern() + "' line for " + strategy);
    }
    return Long.parseLong(matcher.group(1).replace(",", ""));
  }

  /** Why perf cannot count cache misses here, or null when it can. */
  private static String perfProblem(Path work) {
    if (!onPath("perf")) {
      return "perf is not installed";
    }
    try {
      Process process = new ProcessBuilder("perf", "stat", "-x", ",", "-e", "instructions", "true")
          .directory(work.toFile()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
        return "perf stat fails here";
      }
      for (String line : output.split("\n")) {
        if (line.contains("instructions") && line.split(",")[0].matches("[0-9]+")) {
          return null;
        }
      }
      return "perf has no hardware counters here (instructions: <not supported>)";
    } catch (IOException e) {
      return "perf cannot run: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
