package org.cacheflow.plan.schedule;

import java.util.List;

/**
 * Which actor a name the user gave means ({@code --variable}, {@code --cost-spread}, a task's {@code Variable actors}
 * and {@code Cost spread}; a profile's actors, which {@code generate --profile} adds, are named by their paths): the
 * actor's name ({@code Blur}), its path below the top graph ({@code sub/Blur}) or its path from the top graph
 * ({@code filter_bank/sub/Blur}). A name names every actor whose path ends with the name's segments, so a bare name
 * names each actor of that name, in any subgraph.
 */
public final class ActorNames {

  private ActorNames() {
  }

  /**
   * Whether {@code name} names the actor at {@code path}, its path from the top graph ({@code filter_bank/sub/Blur}):
   * the name is the path or its last segments.
   */
  public static boolean names(String name, String path) {
    return !name.isEmpty() && (path.equals(name) || path.endsWith("/" + name));
  }

  /**
   * Whether {@code name} names the actor at {@code below}, its path below the top graph ({@code sub/Blur}), where the
   * top graph's name is not known: as {@link #names}, and a name of one segment more than the path that ends with it
   * ({@code filter_bank/sub/Blur}) is taken as the path from the top graph, whatever that first segment is.
   */
  public static boolean namesBelowTop(String name, String below) {
    return names(name, below) || name.endsWith("/" + below) && segments(name) == segments(below) + 1;
  }

  /**
   * The first of {@code names} that names a firing, a vertex of the single-rate graph named by its actor's path below
   * the top graph and its firing index ({@code sub/Blur_3}): that names its actor ({@link #namesBelowTop}) or, the
   * same way, the firing itself ({@code Blur_3}); null when none does.
   */
  public static String naming(List<String> names, String vertex) {
    String actor = vertex.replaceFirst("_[0-9]+$", "");
    for (String name : names) {
      if (namesBelowTop(name, actor) || namesBelowTop(name, vertex)) {
        return name;
      }
    }
    return null;
  }

  private static int segments(String path) {
    return path.split("/", -1).length;
  }
}
