package org.cacheflow.codegen.model;

import java.util.List;

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
   * @param readOnly whether the actor only reads it: an input whose port is annotated {@code READ_ONLY} or
   *     {@code UNUSED} (any other input may be written, as actors may write their inputs)
   */
  record Data(String name, String type, BufferRef buffer, long bytes, boolean input, boolean readOnly)
      implements Argument {

    /** A data parameter the actor may write (an output, or an input without a read-only annotation). */
    public Data(String name, String type, BufferRef buffer, long bytes, boolean input) {
      this(name, type, buffer, bytes, input, false);
    }
  }

  /**
   * A configuration actor's config output (PREESM's {@code OUT Param *name}): the address of a local the actor writes
   * the value of a dynamic parameter to; after the call the program checks that value against those it was planned
   * for and stops with a message, before any other actor sees it, when it is none of them.
   *
   * @param name the parameter name in the prototype
   * @param type its C type as the prototype gives it ({@code Param}: the actor's headers declare it)
   * @param parameter the dynamic parameter it sets
   * @param actor the configuration actor, relative to the top graph
   * @param planned the values the program was planned for
   */
  record ParamOut(String name, String type, String parameter, String actor, List<Long> planned) implements Argument {

    public ParamOut {
      planned = List.copyOf(planned);
    }
  }
}
