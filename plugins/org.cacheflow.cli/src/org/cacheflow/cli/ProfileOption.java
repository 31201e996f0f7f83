package org.cacheflow.cli;

import java.nio.file.Path;

import org.cacheflow.pipeline.Input;

import picocli.CommandLine.Option;

/** {@code --profile FILE} ({@code @Mixin} of plan and generate): a profile whose facts the plan takes. */
public final class ProfileOption {

  @Option(names = "--profile", paramLabel = "FILE", description = "profile.json written by cacheflow profile: "
      + "measured access modes where the graph declares none, the safe choice (with a warning) where a declaration is "
      + "contradicted, measured timings (ns) in place of the scenario's; plan --report names each fact's source")
  Path profile;

  /** The input with the profile given, if any. */
  Input apply(Input input) {
    return profile == null ? input : input.withProfile(profile);
  }
}
