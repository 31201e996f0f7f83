package org.cacheflow.io.profile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.Gson;
import com.google.gson.JsonParseException;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads a profile ({@code profile.json}, {@link ProfileFile}) with gson. A file that cannot be read, is not JSON, is
 * of another version or misses a field is an {@link InputException} at its file, line and column (the entry's line
 * for a field of an actor or port).
 */
public final class ProfileFileReader {

  private static final Pattern AT = Pattern.compile("line (\\d+) column (\\d+)");

  private ProfileFileReader() {
  }

  /** Reads {@code file}. */
  public static ProfileFile read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputException(SourceLocation.file(file), "cannot read the profile: " + e.getMessage(), e);
    }
    return parse(file, text);
  }

  /** Reads a profile's text; {@code file} names it in errors. */
  public static ProfileFile parse(Path file, String text) {
    ProfileFile profile;
    try {
      profile = new Gson().fromJson(text, ProfileFile.class);
    } catch (JsonParseException e) {
      Matcher at = AT.matcher(String.valueOf(e.getMessage()));
      SourceLocation where = at.find() ? SourceLocation.of(file, Integer.parseInt(at.group(1)),
          Integer.parseInt(at.group(2))) : SourceLocation.of(file, 1, 1);
      throw new InputException(where, "not a profile written by cacheflow profile: " + e.getMessage(), e);
    }
    if (profile == null || profile.cacheflowProfile() != ProfileFile.VERSION) {
      throw new InputException(SourceLocation.of(file, 1, 1), "not a profile of version " + ProfileFile.VERSION
          + " (its \"cacheflowProfile\" is " + (profile == null ? "missing" : profile.cacheflowProfile())
          + "): write it again with cacheflow profile");
    }
    if (profile.actors() == null) {
      throw new InputException(SourceLocation.of(file, 1, 1), "the profile has no \"actors\"");
    }
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      SourceLocation where = lineOf(file, text, actor.actor());
      if (actor.actor() == null || actor.ports() == null || actor.time() == null) {
        throw new InputException(where, "an actor of the profile lacks \"actor\", \"time\" or \"ports\"");
      }
      for (ProfileFile.PortProfile port : actor.ports()) {
        if (port.port() == null || port.measured() == null || port.declared() == null) {
          throw new InputException(where, "a port of " + actor.actor() + " lacks \"port\", \"declared\" or "
              + "\"measured\"");
        }
      }
    }
    return profile;
  }

  /** The line of an actor's entry ({@code "actor": "NAME"}), else the first. */
  private static SourceLocation lineOf(Path file, String text, String actor) {
    int at = actor == null ? -1 : text.indexOf("\"actor\": \"" + actor + "\"");
    if (at < 0) {
      return SourceLocation.of(file, 1, 1);
    }
    int line = 1;
    int start = 0;
    for (int i = 0; i < at; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        start = i + 1;
      }
    }
    return SourceLocation.of(file, line, at - start + 1);
  }
}
