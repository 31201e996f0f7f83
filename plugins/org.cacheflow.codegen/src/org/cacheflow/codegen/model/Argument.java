package org.cacheflow.codegen.model;

/** One argument of an actor call, in prototype order. */
public sealed interface Argument {

  /** The parameter's name in the prototype. */
  String name();

  /**
   * A configuration parameter: a constant fixed at generation time.
   *
   * @param name the parameter name
   * @param type its C type as the prototype gives it
   * @param value the value
   */
  record Constant(String name, String type, long value) implements Argument {
  }

  /**
   * A data parameter: the buffer behind the port of the same name.
   *
   * @param name the parameter (port) name
   * @param type the element type the prototype gives (null when the actor has no prototype)
   * @param buffer where the tokens are
   * @param bytes how many bytes the firing reads or writes there
   * @param input whether the port is an input
   */
  record Data(String name, String type, BufferRef buffer, long bytes, boolean input) implements Argument {
  }
}
