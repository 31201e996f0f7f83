package org.cacheflow.codegen.build;

import java.util.List;
import java.util.Locale;

/**
 * How buffers move between actors and cores, as generated code does it. Named presets; {@code baseline}
 * reproduces PREESM's generated code (copies for special actors, semaphore signalling, a barrier after
 * every iteration), the others pipeline iterations through rdy-ack channels and add one technique each;
 * {@code auto}, {@code cow}, {@code ntm}, {@code prestore} and {@code homeforward} follow the memory plan per buffer.
 *
 * @param name the preset's name
 * @param barrier cores meet after every iteration and cross-core buffers are signalled with semaphores;
 *     otherwise cross-core buffers travel in rdy-ack channels and cores pipeline iterations
 * @param alias buffers the plan aliases (memory-script merge groups) share memory; otherwise every buffer has
 *     its own and special actors copy
 * @param prestoreOps pre-store operation after the last write of a buffer another core reads (null: none)
 * @param skip copies into a buffer another core reads are written with {@code CF_SKIP} streaming stores
 * @param slots k, iterations a channel holds in flight
 */
public record Strategy(String name, boolean barrier, boolean alias, String prestoreOps, boolean skip, int slots) {

  public static final int DEFAULT_SLOTS = 2;

  /** The preset names, as {@code --strategy} accepts them. */
  public static final List<String> NAMES = List.of("baseline", "channels", "alias", "ntm", "cow", "prestore-demote",
      "prestore-clean", "prestore-skip", "auto", "homeforward", "prestore");

  /** The preset of that name; IllegalArgumentException naming the known ones otherwise. */
  public static Strategy named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "baseline" -> new Strategy("baseline", true, false, null, false, 1);
      // baseline, homeforward, prestore, ntm, cow and auto are also the plan's strategy names
      // (org.cacheflow.plan.strategy.GlobalStrategy): their copies, views, pre-stores and slots come from the plan
      case "homeforward" -> new Strategy("homeforward", false, true, null, false, DEFAULT_SLOTS);
      case "prestore" -> new Strategy("prestore", false, true, null, false, DEFAULT_SLOTS);
      case "channels" -> new Strategy("channels", false, false, null, false, DEFAULT_SLOTS);
      case "alias" -> new Strategy("alias", false, true, null, false, DEFAULT_SLOTS);
      case "ntm" -> new Strategy("ntm", false, true, null, false, DEFAULT_SLOTS);
      case "cow" -> new Strategy("cow", false, true, null, false, DEFAULT_SLOTS);
      case "prestore-demote" -> new Strategy("prestore-demote", false, true, "CF_DEMOTE", false, DEFAULT_SLOTS);
      case "prestore-clean" -> new Strategy("prestore-clean", false, true, "CF_CLEAN", false, DEFAULT_SLOTS);
      case "prestore-skip" -> new Strategy("prestore-skip", false, true, null, true, DEFAULT_SLOTS);
      case "auto" -> new Strategy("auto", false, true, null, false, DEFAULT_SLOTS);
      default -> throw new IllegalArgumentException("unknown strategy '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }

  /** The same strategy with k channel slots. */
  public Strategy withSlots(int k) {
    return new Strategy(name, barrier, alias, prestoreOps, skip, k);
  }
}
