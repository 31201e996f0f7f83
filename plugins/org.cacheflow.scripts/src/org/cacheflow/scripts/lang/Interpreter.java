package org.cacheflow.scripts.lang;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.scripts.ScriptException;
import org.cacheflow.scripts.lang.Ast.*;
import org.cacheflow.scripts.lang.Values.Kind;

/**
 * Runs a script's {@link Ast} against a set of global variables. The interpreter is closed: scripts reach
 * nothing but the values they are given, a few methods of lists, maps and strings, and {@code Math}; there is
 * no reflection, class loading or I/O. Every statement and expression costs one step, and a run that exceeds
 * its budget stops with an error instead of hanging. Scoping follows BeanShell: a block opens a scope, an
 * untyped assignment updates the nearest variable of that name or creates one in the current scope, and the
 * variable of an untyped enhanced for loop lives in the enclosing scope.
 */
public final class Interpreter {

  /** The default budget: far more than any real memory script needs, small enough to fail in well under a second. */
  public static final long DEFAULT_STEP_BUDGET = 10_000_000L;

  private final String fileName;
  private final long stepBudget;
  private long steps;
  private Scope scope;

  private Interpreter(String fileName, long stepBudget, Map<String, Object> globals) {
    this.fileName = fileName;
    this.stepBudget = stepBudget;
    this.scope = new Scope(null);
    globals.forEach((name, value) -> scope.variables.put(name, new Variable(null, value)));
  }

  /**
   * Runs {@code program}. Globals are untyped variables (parameters, buffers, lists). Returns the number of
   * steps used.
   */
  public static long run(List<Statement> program, String fileName, Map<String, Object> globals, long stepBudget) {
    Interpreter interpreter = new Interpreter(fileName, stepBudget, globals);
    try {
      for (Statement statement : program) {
        interpreter.execute(statement);
      }
    } catch (ReturnSignal done) {
      // a top-level return ends the script, as in BeanShell
    } catch (BreakSignal | ContinueSignal misplaced) {
      throw interpreter.error(misplaced.position, "'" + misplaced.keyword + "' outside of a loop");
    } catch (StackOverflowError deep) {
      throw new ScriptException(new SourceLocation(fileName, 1, 1), "expression nested too deeply to evaluate");
    }
    return interpreter.steps;
  }

  // ---------------------------------------------------------------- scopes

  private static final class Variable {
    final Type type;
    Object value;

    Variable(Type type, Object value) {
      this.type = type;
      this.value = value;
    }
  }

  private static final class Scope {
    final Scope parent;
    final Map<String, Variable> variables = new HashMap<>(8);

    Scope(Scope parent) {
      this.parent = parent;
    }

    Variable find(String name) {
      for (Scope s = this; s != null; s = s.parent) {
        Variable variable = s.variables.get(name);
        if (variable != null) {
          return variable;
        }
      }
      return null;
    }
  }

  private abstract static class Signal extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final Position position;
    final String keyword;

    Signal(Position position, String keyword) {
      super(null, null, false, false);
      this.position = position;
      this.keyword = keyword;
    }
  }

  private static final class BreakSignal extends Signal {
    private static final long serialVersionUID = 1L;

    BreakSignal(Position position) {
      super(position, "break");
    }
  }

  private static final class ContinueSignal extends Signal {
    private static final long serialVersionUID = 1L;

    ContinueSignal(Position position) {
      super(position, "continue");
    }
  }

  private static final class ReturnSignal extends Signal {
    private static final long serialVersionUID = 1L;

    ReturnSignal(Position position) {
      super(position, "return");
    }
  }

  // ---------------------------------------------------------------- errors

  ScriptException error(Position at, String message) {
    return new ScriptException(location(at), message);
  }

  SourceLocation location(Position at) {
    return new SourceLocation(fileName, at.line(), at.column());
  }

  private void step(Position at) {
    if (++steps > stepBudget) {
      throw error(at, "step budget of " + stepBudget + " exhausted: the script does not terminate (endless loop?)");
    }
  }

  // ---------------------------------------------------------------- statements

  private void execute(Statement statement) {
    step(statement.position());
    if (statement instanceof ExpressionStatement e) {
      evaluate(e.expression());
    } else if (statement instanceof Block block) {
      executeBlock(block);
    } else if (statement instanceof Declaration declaration) {
      declare(declaration);
    } else if (statement instanceof If ifStatement) {
      Statement branch = condition(ifStatement.condition()) ? ifStatement.then() : ifStatement.otherwise();
      if (branch != null) {
        execute(branch);
      }
    } else if (statement instanceof For forStatement) {
      executeFor(forStatement);
    } else if (statement instanceof ForEach forEach) {
      executeForEach(forEach);
    } else if (statement instanceof While whileStatement) {
      while (condition(whileStatement.condition())) {
        try {
          execute(whileStatement.body());
        } catch (BreakSignal b) {
          break;
        } catch (ContinueSignal c) {
          // next iteration
        }
      }
    } else if (statement instanceof DoWhile doWhile) {
      do {
        try {
          execute(doWhile.body());
        } catch (BreakSignal b) {
          break;
        } catch (ContinueSignal c) {
          // next iteration
        }
      } while (condition(doWhile.condition()));
    } else if (statement instanceof Break b) {
      throw new BreakSignal(b.position());
    } else if (statement instanceof Continue c) {
      throw new ContinueSignal(c.position());
    } else if (statement instanceof Return r) {
      if (r.value() != null) {
        evaluate(r.value());
      }
      throw new ReturnSignal(r.position());
    } else if (statement instanceof Throw t) {
      String message = t.message() == null ? "" : Values.text(evaluate(t.message()));
      throw error(t.position(), "script error: " + message);
    }
  }

  private void executeBlock(Block block) {
    Scope saved = scope;
    scope = new Scope(saved);
    try {
      for (Statement statement : block.statements()) {
        execute(statement);
      }
    } finally {
      scope = saved;
    }
  }

  private void declare(Declaration declaration) {
    for (Declarator declarator : declaration.declarators()) {
      Object value;
      if (declarator.initializer() == null) {
        value = Values.defaultValue(declaration.type());
      } else {
        Object initial = evaluate(declarator.initializer());
        value = Values.assign(declaration.type(), initial, true);
        if (value == Values.NOT_ASSIGNABLE) {
          throw error(declarator.position(), "cannot initialise " + declaration.type().javaName + " variable '"
              + declarator.name() + "' with a " + Values.typeName(initial));
        }
      }
      scope.variables.put(declarator.name(), new Variable(declaration.type(), value));
    }
  }

  private void executeFor(For forStatement) {
    Scope saved = scope;
    scope = new Scope(saved);
    try {
      for (Statement init : forStatement.init()) {
        execute(init);
      }
      while (forStatement.condition() == null || condition(forStatement.condition())) {
        try {
          execute(forStatement.body());
        } catch (BreakSignal b) {
          break;
        } catch (ContinueSignal c) {
          // go on with the updates
        }
        for (Expression update : forStatement.updates()) {
          evaluate(update);
        }
      }
    } finally {
      scope = saved;
    }
  }

  private void executeForEach(ForEach forEach) {
    Object iterable = evaluate(forEach.iterable());
    if (!(iterable instanceof List<?> list)) {
      throw error(forEach.iterable().position(),
          "a for-each loop needs a list, got a " + Values.typeName(iterable));
    }
    Scope saved = scope;
    Variable variable;
    if (forEach.type() == null) {
      // BeanShell keeps the untyped loop variable after the loop
      variable = scope.find(forEach.variable());
      if (variable == null) {
        variable = new Variable(null, null);
        scope.variables.put(forEach.variable(), variable);
      }
    } else {
      scope = new Scope(saved);
      variable = new Variable(forEach.type(), null);
      scope.variables.put(forEach.variable(), variable);
    }
    try {
      for (Object element : List.copyOf(list)) {
        step(forEach.position());
        store(variable, forEach.variable(), element, forEach.position(), forEach.type() != null);
        try {
          execute(forEach.body());
        } catch (BreakSignal b) {
          break;
        } catch (ContinueSignal c) {
          // next element
        }
      }
    } finally {
      scope = saved;
    }
  }

  private boolean condition(Expression expression) {
    Object value = evaluate(expression);
    if (value instanceof Boolean b) {
      return b;
    }
    throw error(expression.position(), "a condition must be a boolean, got a " + Values.typeName(value));
  }

  // ---------------------------------------------------------------- expressions

  private Object evaluate(Expression expression) {
    step(expression.position());
    if (expression instanceof Literal literal) {
      return literal.value();
    }
    if (expression instanceof Name name) {
      return read(name.name(), name.position());
    }
    if (expression instanceof Binary binary) {
      return binary(binary);
    }
    if (expression instanceof MethodCall call) {
      if (call.target() instanceof Name owner && scope.find(owner.name()) == null) {
        throw error(owner.position(), "undefined variable or class '" + owner.name()
            + "' (the only class scripts may use is Math)");
      }
      return Methods.call(this, call.position(), evaluate(call.target()), describe(call.target()), call.method(),
          evaluateAll(call.arguments()));
    }
    if (expression instanceof Assignment assignment) {
      return assign(assignment);
    }
    if (expression instanceof Increment increment) {
      return increment(increment);
    }
    if (expression instanceof Unary unary) {
      return unary(unary);
    }
    if (expression instanceof Conditional conditional) {
      return condition(conditional.condition()) ? evaluate(conditional.whenTrue())
          : evaluate(conditional.whenFalse());
    }
    if (expression instanceof Cast cast) {
      return cast(cast);
    }
    if (expression instanceof StaticCall call) {
      return Methods.callStatic(this, call.position(), call.className(), call.method(),
          evaluateAll(call.arguments()));
    }
    return ((StaticField) expression).value();
  }

  private static String describe(Expression target) {
    return target instanceof Name name ? "'" + name.name() + "'" : "the value";
  }

  private List<Object> evaluateAll(List<Expression> expressions) {
    List<Object> values = new ArrayList<>(expressions.size());
    for (Expression expression : expressions) {
      values.add(evaluate(expression));
    }
    return values;
  }

  private Object read(String name, Position at) {
    Variable variable = scope.find(name);
    if (variable == null) {
      throw error(at, "undefined variable '" + name + "'");
    }
    return variable.value;
  }

  private Object assign(Assignment assignment) {
    Object value = evaluate(assignment.value());
    Variable variable = scope.find(assignment.name());
    if (!assignment.operator().isEmpty()) {
      if (variable == null) {
        throw error(assignment.position(), "undefined variable '" + assignment.name() + "'");
      }
      value = Operators.binary(this, assignment.position(), assignment.operator(), variable.value, value);
    }
    if (variable == null) {
      scope.variables.put(assignment.name(), new Variable(null, value));
      return value;
    }
    store(variable, assignment.name(), value, assignment.position(), false);
    return variable.value;
  }

  private void store(Variable variable, String name, Object value, Position at, boolean declaration) {
    if (variable.type == null) {
      variable.value = value;
      return;
    }
    Object converted = Values.assign(variable.type, value, declaration);
    if (converted == Values.NOT_ASSIGNABLE) {
      throw error(at, "cannot assign a " + Values.typeName(value) + " to " + variable.type.javaName + " variable '"
          + name + "'");
    }
    variable.value = converted;
  }

  private Object increment(Increment increment) {
    Variable variable = scope.find(increment.name());
    if (variable == null) {
      throw error(increment.position(), "undefined variable '" + increment.name() + "'");
    }
    Object old = variable.value;
    Object updated;
    if (old instanceof Integer i) {
      updated = i + increment.delta();
    } else if (old instanceof Long l) {
      updated = l + increment.delta();
    } else {
      // BeanShell itself fails on ++ of a double; we only allow integers
      throw error(increment.position(), "'" + (increment.delta() > 0 ? "++" : "--")
          + "' applies to int and long variables, '" + increment.name() + "' is a " + Values.typeName(old));
    }
    variable.value = updated;
    return increment.prefix() ? updated : old;
  }

  private Object binary(Binary binary) {
    String operator = binary.operator();
    if (operator.equals("&&") || operator.equals("||")) {
      boolean left = logical(binary.left(), operator);
      if (operator.equals("&&") ? !left : left) {
        return left;
      }
      return logical(binary.right(), operator);
    }
    Object left = evaluate(binary.left());
    Object right = evaluate(binary.right());
    return Operators.binary(this, binary.position(), operator, left, right);
  }

  private boolean logical(Expression operand, String operator) {
    Object value = evaluate(operand);
    if (value instanceof Boolean b) {
      return b;
    }
    throw error(operand.position(), "operator '" + operator + "' needs booleans, got a " + Values.typeName(value));
  }

  private Object unary(Unary unary) {
    Object operand = evaluate(unary.operand());
    return Operators.unary(this, unary.position(), unary.operator(), operand);
  }

  private Object cast(Cast cast) {
    Object operand = evaluate(cast.operand());
    Kind target = Values.kindOf(cast.type());
    if (Values.kind(operand) == null) {
      throw error(cast.position(), "cannot cast a " + Values.typeName(operand) + " to " + cast.type().javaName);
    }
    return Values.convert(operand, target);
  }
}
