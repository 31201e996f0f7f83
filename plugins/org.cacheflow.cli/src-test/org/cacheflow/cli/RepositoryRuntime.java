package org.cacheflow.cli;

import java.nio.file.Path;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Points the commands at the repository's runtime-c for each test ({@code @ExtendWith}), and forgets it after. */
final class RepositoryRuntime implements BeforeEachCallback, AfterEachCallback {

  @Override
  public void beforeEach(ExtensionContext context) {
    System.setProperty(GenerateCommand.RUNTIME_PROPERTY, Path.of("../../runtime-c").toAbsolutePath().toString());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.clearProperty(GenerateCommand.RUNTIME_PROPERTY);
  }
}
