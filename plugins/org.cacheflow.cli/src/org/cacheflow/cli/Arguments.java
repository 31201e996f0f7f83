package org.cacheflow.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A command's arguments: positionals, flags and options with values ({@code --name value} or
 * {@code --name=value}; options may repeat). Each command declares which flags and options it knows, so
 * a typo is a usage error instead of being ignored.
 */
public final class Arguments {

  private final List<String> positionals = new ArrayList<>();
  private final Map<String, List<String>> options = new LinkedHashMap<>();

  private Arguments() {
  }

  /**
   * @param flags   names (with leading dashes) that take no value
   * @param valued  names (with leading dashes) that take a value
   */
  public static Arguments parse(List<String> args, Set<String> flags, Set<String> valued) {
    Arguments parsed = new Arguments();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--")) {
        parsed.positionals.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (!arg.startsWith("-") || arg.equals("-")) {
        parsed.positionals.add(arg);
        continue;
      }
      String name = arg;
      String value = null;
      int equals = arg.indexOf('=');
      if (arg.startsWith("--") && equals > 0) {
        name = arg.substring(0, equals);
        value = arg.substring(equals + 1);
      }
      if (flags.contains(name)) {
        if (value != null) {
          throw new UsageException("option " + name + " takes no value");
        }
        parsed.options.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
      } else if (valued.contains(name)) {
        if (value == null) {
          if (i + 1 >= args.size()) {
            throw new UsageException("option " + name + " needs a value");
          }
          value = args.get(++i);
        }
        parsed.options.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      } else {
        throw new UsageException("unknown option " + name);
      }
    }
    return parsed;
  }

  public List<String> positionals() {
    return Collections.unmodifiableList(positionals);
  }

  public boolean flag(String name) {
    return options.containsKey(name);
  }

  /** The value of an option given at most once. */
  public Optional<String> option(String name) {
    List<String> values = options.getOrDefault(name, List.of());
    if (values.size() > 1) {
      throw new UsageException("option " + name + " given more than once");
    }
    return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  public List<String> all(String name) {
    return Collections.unmodifiableList(options.getOrDefault(name, List.of()));
  }

  /** An option that must be a positive integer, e.g. a core count. */
  public Optional<Integer> positiveInt(String name) {
    return option(name).map(text -> {
      try {
        int value = Integer.parseInt(text.trim());
        if (value <= 0) {
          throw new UsageException("option " + name + " must be a positive integer, got '" + text + "'");
        }
        return value;
      } catch (NumberFormatException e) {
        throw new UsageException("option " + name + " must be a positive integer, got '" + text + "'");
      }
    });
  }

  /** Exactly one positional argument, named in the message when missing. */
  public String single(String what) {
    if (positionals.isEmpty()) {
      throw new UsageException("missing " + what);
    }
    if (positionals.size() > 1) {
      throw new UsageException("expected one " + what + ", got " + positionals.size() + ": " + positionals);
    }
    return positionals.get(0);
  }
}
