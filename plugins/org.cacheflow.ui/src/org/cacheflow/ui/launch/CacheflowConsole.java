package org.cacheflow.ui.launch;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.eclipse.ui.console.ConsolePlugin;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.IConsoleManager;
import org.eclipse.ui.console.MessageConsole;
import org.eclipse.ui.console.MessageConsoleStream;

/** The "cacheflow" console, where runs print what the command line would print. */
public final class CacheflowConsole {

  public static final String NAME = "cacheflow";

  private CacheflowConsole() {
  }

  /** The console, created on first use. */
  public static MessageConsole get() {
    IConsoleManager manager = ConsolePlugin.getDefault().getConsoleManager();
    for (IConsole console : manager.getConsoles()) {
      if (NAME.equals(console.getName()) && console instanceof MessageConsole message) {
        return message;
      }
    }
    MessageConsole console = new MessageConsole(NAME, null);
    manager.addConsoles(new IConsole[] {console});
    return console;
  }

  /** Prints one line. */
  public static void println(String line) {
    try (MessageConsoleStream stream = get().newMessageStream()) {
      stream.println(line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
