package org.cacheflow.scripts.lang;

import java.util.List;

/**
 * The syntax tree of a memory script, built from the ANTLR parse tree by {@link AstBuilder}. Only
 * constructs of the supported subset have a node; everything else is rejected while building.
 */
public final class Ast {

  private Ast() {
  }

  /** 1-based line and column of the first token of a node. */
  public record Position(int line, int column) {
  }

  /** A declared type: a primitive, a boxed number, or one of the few reference types scripts use. */
  public enum Type {
    INT("int", true), LONG("long", true), FLOAT("float", true), DOUBLE("double", true), BOOLEAN("boolean", true),
    INTEGER_OBJECT("Integer", false), LONG_OBJECT("Long", false), FLOAT_OBJECT("Float", false),
    DOUBLE_OBJECT("Double", false), BOOLEAN_OBJECT("Boolean", false), STRING("String", false),
    OBJECT("Object", false), BUFFER("Buffer", false), LIST("List", false), MAP("Map", false);

    public final String javaName;
    public final boolean primitive;

    Type(String javaName, boolean primitive) {
      this.javaName = javaName;
      this.primitive = primitive;
    }

    /** The primitive a boxed type stands for, or the type itself. */
    public Type unboxed() {
      return switch (this) {
        case INTEGER_OBJECT -> INT;
        case LONG_OBJECT -> LONG;
        case FLOAT_OBJECT -> FLOAT;
        case DOUBLE_OBJECT -> DOUBLE;
        case BOOLEAN_OBJECT -> BOOLEAN;
        default -> this;
      };
    }

    public boolean isNumeric() {
      Type type = unboxed();
      return type == INT || type == LONG || type == FLOAT || type == DOUBLE;
    }
  }

  /** Statements. */
  public sealed interface Statement permits Block, Declaration, If, For, ForEach, While, DoWhile, Break, Continue,
      Return, Throw, ExpressionStatement {
    Position position();
  }

  public record Block(Position position, List<Statement> statements) implements Statement {
  }

  public record Declarator(Position position, String name, Expression initializer) {
  }

  public record Declaration(Position position, Type type, List<Declarator> declarators) implements Statement {
  }

  public record If(Position position, Expression condition, Statement then, Statement otherwise)
      implements Statement {
  }

  /** A classic for loop; its initialisers, condition and updates live in a scope of their own. */
  public record For(Position position, List<Statement> init, Expression condition, List<Expression> updates,
      Statement body) implements Statement {
  }

  /** {@code for (x : list)} or {@code for (Type x : list)}; type is null for the untyped form. */
  public record ForEach(Position position, Type type, String variable, Expression iterable, Statement body)
      implements Statement {
  }

  public record While(Position position, Expression condition, Statement body) implements Statement {
  }

  public record DoWhile(Position position, Statement body, Expression condition) implements Statement {
  }

  public record Break(Position position) implements Statement {
  }

  public record Continue(Position position) implements Statement {
  }

  /** Ends the script (BeanShell returns from the top-level evaluation). */
  public record Return(Position position, Expression value) implements Statement {
  }

  /** {@code throw new Exception(message)}: a user-facing script error. */
  public record Throw(Position position, String exceptionClass, Expression message) implements Statement {
  }

  public record ExpressionStatement(Position position, Expression expression) implements Statement {
  }

  /** Expressions. */
  public sealed interface Expression permits Literal, Name, Assignment, Binary, Unary, Increment, Conditional,
      Cast, MethodCall, StaticCall, StaticField {
    Position position();
  }

  public record Literal(Position position, Object value) implements Expression {
  }

  public record Name(Position position, String name) implements Expression {
  }

  /** {@code name = value} or a compound assignment such as {@code name += value} (operator is "+"). */
  public record Assignment(Position position, String name, String operator, Expression value) implements Expression {
  }

  public record Binary(Position position, String operator, Expression left, Expression right)
      implements Expression {
  }

  public record Unary(Position position, String operator, Expression operand) implements Expression {
  }

  /** {@code ++x}, {@code x--}...: delta is +1 or -1. */
  public record Increment(Position position, String name, int delta, boolean prefix) implements Expression {
  }

  public record Conditional(Position position, Expression condition, Expression whenTrue, Expression whenFalse)
      implements Expression {
  }

  public record Cast(Position position, Type type, Expression operand) implements Expression {
  }

  public record MethodCall(Position position, Expression target, String method, List<Expression> arguments)
      implements Expression {
  }

  /** {@code Math.min(a, b)} and friends. */
  public record StaticCall(Position position, String className, String method, List<Expression> arguments)
      implements Expression {
  }

  /** {@code Integer.MAX_VALUE} and friends. */
  public record StaticField(Position position, String className, String field, Object value) implements Expression {
  }
}
