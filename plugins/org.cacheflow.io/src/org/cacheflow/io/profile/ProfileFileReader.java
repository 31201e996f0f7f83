package org.cacheflow.io.profile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.Strictness;

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
      profile = new GsonBuilder().setStrictness(Strictness.STRICT).create().fromJson(text, ProfileFile.class);
    } catch (JsonParseException e) {
      Matcher at = AT.matcher(String.valueOf(e.getMessage()));
      SourceLocation where = at.find() ? SourceLocation.of(file, Integer.parseInt(at.group(1)),
          Integer.parseInt(at.group(2))) : SourceLocation.of(file, 1, 1);
      throw new InputException(where, "not a profile written by cacheflow profile: " + reason(e), e);
    }
    if (profile == null || profile.cacheflowProfile() != ProfileFile.VERSION) {
      throw new InputException(SourceLocation.of(file, 1, 1), "not a profile of version " + ProfileFile.VERSION
          + " (its \"cacheflowProfile\" is " + (profile == null ? "missing" : profile.cacheflowProfile())
          + "): write it again with cacheflow profile");
    }
    if (profile.actors() == null || profile.graph() == null) {
      throw new InputException(SourceLocation.of(file, 1, 1), "the profile has no \"graph\" or no \"actors\"");
    }
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      SourceLocation where = lineOf(file, text, actor == null ? null : actor.actor());
      if (actor == null || actor.actor() == null || actor.ports() == null || actor.time() == null) {
        throw new InputException(where, "an actor of the profile lacks \"actor\", \"time\" or \"ports\"");
      }
      for (ProfileFile.PortProfile port : actor.ports()) {
        if (port == null || port.port() == null || port.measured() == null || port.declared() == null) {
          throw new InputException(where, "a port of " + actor.actor() + " lacks \"port\", \"declared\" or "
              + "\"measured\"");
        }
      }
    }
    return profile;
  }

  /** gson's reason in the user's words: no exception class, no advice on leniency, no link. */
  private static String reason(JsonParseException e) {
    String text = String.valueOf(e.getMessage()).split("\n")[0].replaceFirst("^[\\w.$]+(Exception|Error): ", "");
    text = text.replaceFirst("Use JsonReader\\.setStrictness\\([^)]*\\) to accept malformed JSON", "malformed JSON");
    return text.replaceFirst(" at line \\d+ column \\d+.*$", "").strip();
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
