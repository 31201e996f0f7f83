package org.cacheflow.codegen.build;

import java.util.HashMap;
import java.util.Map;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.model.ActorKind;

/**
 * The names PREESM's code generator gives the buffers of single-rate edges, which its generated code prints in
 * {@code preesm_md5_<buffer> : <md5>} lines and a project's {@code .validation.hash} holds: the edge's source port
 * and target port joined by {@code __}, cut to {@value #KEY_LENGTH} characters, then {@code __} and the number of
 * earlier buffers with the same cut name (PREESM's {@code generateUniqueBufferName}). Port names are those of the
 * single-rate graph, which cacheflow's expansion gives as PREESM's does (a fork's outputs and a join's inputs
 * {@code PORT_I}, a join's output the producer's port); the outputs of a broadcast of the graph take, as in PREESM's
 * single-rate graph, the suffix {@code _I} with I the output's position among the broadcast's outputs
 * ({@code out0_0}, {@code out1_1}). Earlier buffers are counted in edge order, where PREESM counts in the order its
 * memory allocation lists them: two buffers with one cut name may be numbered the other way round.
 */
public final class PreesmBufferNames {

  /** PREESM cuts the joined port names to this many characters before numbering them. */
  static final int KEY_LENGTH = 28;

  private final Srdag srdag;
  private final int[] number;

  private PreesmBufferNames(Srdag srdag, int[] number) {
    this.srdag = srdag;
    this.number = number;
  }

  /** The names of every edge of a single-rate graph. */
  public static PreesmBufferNames of(Srdag srdag) {
    int[] number = new int[srdag.edgeCount()];
    Map<String, Integer> counts = new HashMap<>();
    for (int e = 0; e < number.length; e++) {
      number[e] = counts.merge(key(srdag, e), 1, Integer::sum) - 1;
    }
    return new PreesmBufferNames(srdag, number);
  }

  /** The name of the buffer of edge {@code e}. */
  public String name(int e) {
    return key(srdag, e) + "__" + number[e];
  }

  private static String key(Srdag srdag, int e) {
    String key = sourcePort(srdag, e) + "__" + srdag.edgeTargetPort(e);
    return key.length() > KEY_LENGTH ? key.substring(0, KEY_LENGTH) : key;
  }

  private static String sourcePort(Srdag srdag, int e) {
    String port = srdag.edgeSourcePort(e);
    int v = srdag.edgeSource(e);
    if (srdag.vertexKind(v) != ActorKind.BROADCAST || srdag.isInserted(v)) {
      return port;
    }
    int[] outputs = srdag.portOrderedEdges(v, false);
    for (int i = 0; i < outputs.length; i++) {
      if (outputs[i] == e) {
        return port + "_" + i;
      }
    }
    return port;
  }
}
