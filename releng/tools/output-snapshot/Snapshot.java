import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.cacheflow.cli.Main;

/**
 * Everything cacheflow writes for a list of graphs, every strategy and several core counts, in one folder: per case
 * the generated project (without its copy of the runtime), the generate command's messages, and for the planner's
 * strategies the plan text, {@code plan --json} and the plan report. Two snapshots taken from two builds compare
 * with {@code diff -r}; the output folder is written as {@code OUT} in messages so that they compare too. Run by
 * {@code snapshot.sh}, which says how.
 */
public final class Snapshot {

  private static final List<String> PLAN_STRATEGIES = List.of("baseline", "cow", "ntm", "prestore", "homeforward",
      "auto");

  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      System.err.println("usage: Snapshot OUT GRAPH-LIST STRATEGY,... CORES,...");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    List<String> graphs = Files.readAllLines(Path.of(args[1]));
    String[] strategies = args[2].split(",");
    String[] cores = args[3].split(",");
    Main main = new Main();
    int done = 0;
    for (String line : graphs) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split("\\|");
      List<String> extra = new ArrayList<>();
      for (int i = 2; i < fields.length; i++) {
        extra.addAll(Arrays.asList(fields[i].trim().split(" ")));
      }
      for (String c : cores) {
        for (String strategy : strategies) {
          String name = fields[0].trim() + "-" + strategy + "-" + c;
          Path dir = out.resolve(name);
          Files.createDirectories(dir);
          List<String> generate = new ArrayList<>(List.of("generate", fields[1].trim(), "--out",
              dir.resolve("gen").toString(), "--strategy", strategy, "--cores", c, "--synthetic-actors"));
          generate.addAll(extra);
          run(main, generate, dir.resolve("generate.txt"), out);
          deleteTree(dir.resolve("gen/cacheflow-runtime"));
          if (PLAN_STRATEGIES.contains(strategy)) {
            List<String> plan = new ArrayList<>(List.of("plan", fields[1].trim(), "--strategy", strategy,
                "--cores", c));
            List<String> report = new ArrayList<>(plan);
            report.addAll(List.of("--report", dir.resolve("report").toString()));
            report.addAll(extra);
            run(main, report, dir.resolve("plan.txt"), out);
            plan.add("--json");
            plan.addAll(extra);
            run(main, plan, dir.resolve("plan.json"), out);
          }
          System.err.println(++done + " " + name);
        }
      }
    }
  }

  /** One command: its exit status, standard output and standard error, the output folder written as OUT. */
  private static void run(Main main, List<String> args, Path file, Path out) throws IOException {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(stdout, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(stderr, true, StandardCharsets.UTF_8)) {
      status = main.run(args, o, e);
    }
    String text = "exit " + status + "\n" + stdout.toString(StandardCharsets.UTF_8) + "\n--stderr--\n"
        + stderr.toString(StandardCharsets.UTF_8);
    Files.writeString(file, text.replace(out.toString(), "OUT"));
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
