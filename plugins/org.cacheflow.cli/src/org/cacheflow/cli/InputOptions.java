package org.cacheflow.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.plan.mapping.MappingPolicy;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What every command that reads a graph takes ({@code @Mixin}): the graph or project, {@code --scenario} and
 * {@code --param}.
 */
public final class InputOptions {

  @Parameters(paramLabel = "<graph.pi | sdf3.xml | project-dir>", arity = "0..*", description = "the graph (PiSDF "
      + ".pi or SDF3 .xml) or PREESM project directory")
  List<String> inputs;

  @Option(names = "--scenario", paramLabel = "F", description = "PREESM scenario (data type sizes, parameter values, "
      + "timings, constraints): a file, or a name or path in the project (4core, Scenarios/4core.scenario). For a "
      + "project directory without --scenario, the first scenario whose files exist is used.")
  Path scenario;

  @Option(names = "--param", paramLabel = "NAME=VALUE", description = "override a parameter (NAME or "
      + "graph/sub/NAME); repeatable; wins over the scenario. A dynamic parameter (set at run time by a configuration "
      + "actor) takes the values it may take, NAME=V1,V2,...: plan plans each combination, generate writes one program "
      + "switching between them every iteration")
  List<String> params = new ArrayList<>();

  /** The one graph or project named, {@code what} naming it when it is missing. */
  Input input(String what) {
    return new Input(CliCommand.single(inputs, what), scenario, Input.parseParams(params));
  }

  /** {@code --nodes}, {@code --cores} and {@code --max-memory} ({@code @Mixin} of plan and generate). */
  public static final class Platform {

    @Option(names = "--cores", paramLabel = "N", converter = PositiveInt.class, description = "cores to run on, named "
        + "Core0..CoreN-1, instead of the scenario's architecture (without one: 1 for generate, the target's core "
        + "count for plan); with --nodes, the cores of each node; a generated program has at most "
        + PlatformOptions.MAX_CORES + " in all")
    Integer cores;

    @Option(names = "--nodes", paramLabel = "N", converter = PositiveInt.class,
        description = "nodes (machines, one MPI "
        + "process each) of --cores cores each: the firings are partitioned across the nodes, FIFOs between nodes "
        + "become MPI transfers (default: the scenario's architecture); cores are numbered node by node. See "
        + "docs/multinode.md")
    Integer nodes;

    @Option(names = "--max-memory", paramLabel = "SIZE", converter = SizeValue.class, description = "the memory a "
        + "program may use (512M, 24G, 1T; 0: no limit) instead of the target's 'memory': generate refuses a larger "
        + "program and writes nothing; plan says whether it fits")
    Long maxMemory;

    PlatformOptions options() {
      return new PlatformOptions(nodes, cores, maxMemory);
    }
  }

  /**
   * {@code --policy}: how the list scheduler maps firings to cores ({@code @Mixin} of plan, generate and
   * run-workflow). Without it, plan and generate map with {@code load} and run-workflow keeps each task's
   * {@code Mapping policy}, which its help says by giving the text of the key {@code policy}
   * ({@link CliCommand#texts}).
   */
  public static final class Mapping {

    @Option(names = "--policy", paramLabel = "P", descriptionKey = "policy", description = "load (default): each "
        + "firing where it finishes first; locality: consumers of buffers of at least the L1 size stay with their "
        + "producer when the load allows")
    String policy;

    /** The policy given, else {@link MappingPolicy#LOAD_BALANCE}. */
    MappingPolicy policy() {
      MappingPolicy given = given();
      return given == null ? MappingPolicy.LOAD_BALANCE : given;
    }

    /** The policy given, or null without {@code --policy}. */
    MappingPolicy given() {
      if (policy == null) {
        return null;
      }
      return MappingPolicy.parse(policy).orElseThrow(() -> new UsageException("unknown mapping policy '" + policy
          + "' (known: " + MappingPolicy.labels() + ")"));
    }
  }
}
