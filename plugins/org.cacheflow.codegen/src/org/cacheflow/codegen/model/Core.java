package org.cacheflow.codegen.model;

import java.util.List;

/**
 * One core's program: start-up steps (init prototypes), then the loop body run once per graph iteration.
 *
 * @param index the core number (thread index; pinned to CPU {@code index} modulo the CPUs available)
 * @param pointers local pointer variables the loop sets through channel and copy-on-write calls
 * @param buffers static buffers this core allocates (and frees at the end)
 * @param homes channels this core receives on: it touches their slots first
 * @param init start-up steps
 * @param loop the static schedule of one iteration
 */
public record Core(int index, List<String> pointers, List<StaticBuffer> buffers, List<Channel> homes,
    List<Statement> init,
    List<Statement> loop) {

  /** The most cores a generated program runs on: the C runtime's limit (a set of cores is one 64-bit mask). */
  public static final int MOST = 64;
}
