package org.cacheflow.model.expression;

import java.util.List;

/**
 * The parsed form of an expression. Every node remembers the span [start, end) of the expression text it
 * was read from, so errors can quote the failing part and point at its column.
 */
sealed interface Node {

  int start();

  int end();

  record Literal(double value, int start, int end) implements Node {
  }

  record Variable(String name, int start, int end) implements Node {
  }

  /** op is one of - + ! */
  record Unary(String op, Node operand, int start, int end) implements Node {
  }

  /** opOffset locates the operator itself, the place to point at for e.g. a division by zero. */
  record Binary(String op, Node left, Node right, int opOffset, int start, int end) implements Node {
  }

  record Call(Functions.Function function, List<Node> arguments, int start, int end) implements Node {
  }
}
