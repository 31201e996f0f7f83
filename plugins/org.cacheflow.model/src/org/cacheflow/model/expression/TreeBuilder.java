package org.cacheflow.model.expression;

import java.util.ArrayList;
import java.util.List;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.cacheflow.model.expression.ExpressionParser.AdditiveContext;
import org.cacheflow.model.expression.ExpressionParser.AndContext;
import org.cacheflow.model.expression.ExpressionParser.CallContext;
import org.cacheflow.model.expression.ExpressionParser.EqualityContext;
import org.cacheflow.model.expression.ExpressionParser.ExprContext;
import org.cacheflow.model.expression.ExpressionParser.MultiplicativeContext;
import org.cacheflow.model.expression.ExpressionParser.NumberContext;
import org.cacheflow.model.expression.ExpressionParser.OrContext;
import org.cacheflow.model.expression.ExpressionParser.ParensContext;
import org.cacheflow.model.expression.ExpressionParser.PowerContext;
import org.cacheflow.model.expression.ExpressionParser.RelationalContext;
import org.cacheflow.model.expression.ExpressionParser.UnaryContext;
import org.cacheflow.model.expression.ExpressionParser.VariableContext;

/** Turns the ANTLR parse tree into {@link Node}s, checking function names and argument counts. */
final class TreeBuilder extends ExpressionBaseVisitor<Node> {

  private final Expression expression;

  TreeBuilder(Expression expression) {
    this.expression = expression;
  }

  @Override
  public Node visitParens(ParensContext context) {
    return visit(context.expr());
  }

  @Override
  public Node visitCall(CallContext context) {
    String name = context.NAME().getText();
    Functions.Function function = Functions.lookup(name);
    int start = start(context);
    if (function == null) {
      throw expression.error(start, "unknown function '" + name + "' in expression '" + expression.text()
          + "' (known: " + String.join(", ", Functions.all().keySet()) + ")");
    }
    List<Node> arguments = new ArrayList<>();
    for (ExprContext argument : context.expr()) {
      arguments.add(visit(argument));
    }
    if (!function.accepts(arguments.size())) {
      throw expression.error(start, "function '" + name + "' takes " + function.arity() + ", not "
          + arguments.size() + ", in expression '" + expression.text() + "'");
    }
    return new Node.Call(function, List.copyOf(arguments), start, end(context));
  }

  @Override
  public Node visitNumber(NumberContext context) {
    String digits = context.NUMBER().getText();
    double value = Double.parseDouble(digits);
    if (Double.isInfinite(value)) {
      throw expression.error(start(context), "number " + digits + " is too large in expression '"
          + expression.text() + "'");
    }
    return new Node.Literal(value, start(context), end(context));
  }

  @Override
  public Node visitVariable(VariableContext context) {
    return new Node.Variable(context.NAME().getText(), start(context), end(context));
  }

  @Override
  public Node visitUnary(UnaryContext context) {
    return new Node.Unary(context.op.getText(), visit(context.expr()), start(context), end(context));
  }

  @Override
  public Node visitPower(PowerContext context) {
    return binary(context, context.op, context.expr(0), context.expr(1));
  }

  @Override
  public Node visitMultiplicative(MultiplicativeContext context) {
    return binary(context, context.op, context.expr(0), context.expr(1));
  }

  @Override
  public Node visitAdditive(AdditiveContext context) {
    return binary(context, context.op, context.expr(0), context.expr(1));
  }

  @Override
  public Node visitRelational(RelationalContext context) {
    return binary(context, context.op, context.expr(0), context.expr(1));
  }

  @Override
  public Node visitEquality(EqualityContext context) {
    return binary(context, context.op, context.expr(0), context.expr(1));
  }

  @Override
  public Node visitAnd(AndContext context) {
    return binary(context, context.op, context.expr(0), context.expr(1));
  }

  @Override
  public Node visitOr(OrContext context) {
    return binary(context, context.op, context.expr(0), context.expr(1));
  }

  private Node binary(ParserRuleContext context, Token op, ExprContext left, ExprContext right) {
    return new Node.Binary(op.getText(), visit(left), visit(right), op.getStartIndex(), start(context),
        end(context));
  }

  private static int start(ParserRuleContext context) {
    return context.getStart().getStartIndex();
  }

  private static int end(ParserRuleContext context) {
    return context.getStop().getStopIndex() + 1;
  }
}
