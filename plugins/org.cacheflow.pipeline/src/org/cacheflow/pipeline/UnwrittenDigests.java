package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.io.profile.ProfileFile;

/**
 * The sinks whose {@code --validate} digest covers bytes no actor writes: their producer's output port left bytes
 * unwritten in every firing of the profiled run, so the digest depends on the memory layout and may differ between
 * strategies.
 */
final class UnwrittenDigests {

  private UnwrittenDigests() {
  }

  /**
   * A sink, the actor writing it and the port it leaves partly unwritten.
   *
   * @param sink the sink as the program names it ({@code source.port -> target.port})
   */
  record Unwritten(String sink, ProfileFile.ActorProfile actor, ProfileFile.PortProfile port) {

    /** The profile's sentence (its {@code unwrittenDigests}). */
    String sentence() {
      return "the --validate digest of " + sink + " covers " + port.unwrittenBytes() + " of the "
          + port.bytesPerFiring() + " bytes of each firing's output that " + actor.actor() + " never writes"
          + (port.unwrittenRanges().isEmpty() ? "" : " (from byte " + port.unwrittenRanges().get(0).get(0) + ")")
          + ": it depends on the memory layout and may differ between strategies";
    }

    /** The line a program generated with the profile prints after the sink's digest. */
    String note() {
      List<String> ranges = new ArrayList<>();
      for (List<Long> range : port.unwrittenRanges()) {
        ranges.add(range.get(1) - range.get(0) == 1 ? Long.toString(range.get(0)) : range.get(0) + "-"
            + (range.get(1) - 1));
      }
      return "note: the digest of " + sink + " covers bytes " + (ranges.isEmpty() ? "" : String.join(", ", ranges)
          + " ") + "(" + port.unwrittenBytes() + " of " + port.bytesPerFiring() + " per firing) that "
          + actor.actor() + " never wrote in the profiled run: it depends on the memory layout";
    }
  }

  /** Of {@code sinks}, those whose producer (a profiled actor of graph {@code graph}) leaves bytes unwritten. */
  static List<Unwritten> of(List<String> sinks, List<ProfileFile.ActorProfile> actors, String graph) {
    List<Unwritten> found = new ArrayList<>();
    String top = graph + "/";
    for (String sink : sinks) {
      String source = sink.split(" -> ")[0];
      int dot = source.lastIndexOf('.');
      if (dot < 0) {
        continue;
      }
      ProfileFile.ActorProfile actor = actors.stream().filter(a -> a.actor().equals(top + source.substring(0, dot))
          || a.actor().equals(source.substring(0, dot))).findFirst().orElse(null);
      ProfileFile.PortProfile port = actor == null ? null : actor.port(source.substring(dot + 1));
      if (port != null && port.unwrittenBytes() > 0) {
        found.add(new Unwritten(sink, actor, port));
      }
    }
    return found;
  }
}
