package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;

import org.cacheflow.io.profile.ProfileFile;

/**
 * A profile written.
 *
 * @param profile what it holds
 * @param json the {@code profile.json} written
 * @param markdown the {@code profile.md} written
 * @param findings the suggested annotations and the contradictions, one line each
 * @param diagnostics warnings and notes, in order
 */
public record ProfileResult(ProfileFile profile, Path json, Path markdown, List<String> findings,
    List<Diagnostic> diagnostics) {

  /** One line for users. */
  public String summary() {
    return "profiled " + profile.actors().size() + " actors of " + profile.graph() + " (" + profile.iterations()
        + " iterations on " + profile.cores() + (profile.cores() == 1 ? " core" : " cores") + "): wrote "
        + PathText.display(json) + " and " + PathText.display(markdown);
  }
}
