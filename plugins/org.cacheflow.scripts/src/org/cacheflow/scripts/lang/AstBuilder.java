package org.cacheflow.scripts.lang;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.scripts.ScriptException;
import org.cacheflow.scripts.lang.Ast.Expression;
import org.cacheflow.scripts.lang.Ast.Position;
import org.cacheflow.scripts.lang.Ast.Statement;
import org.cacheflow.scripts.lang.Ast.Type;
import org.cacheflow.scripts.parser.MemoryScriptLexer;
import org.cacheflow.scripts.parser.MemoryScriptParser;
import org.cacheflow.scripts.parser.MemoryScriptParser.*;

/**
 * Parses a script with the ANTLR grammar and turns the parse tree into an {@link Ast}. Syntax errors and
 * constructs outside the subset become a {@link ScriptException} naming the file, line, column and construct.
 */
public final class AstBuilder {

  private static final Map<String, Type> TYPE_NAMES = Map.ofEntries(Map.entry("int", Type.INT),
      Map.entry("long", Type.LONG), Map.entry("float", Type.FLOAT), Map.entry("double", Type.DOUBLE),
      Map.entry("boolean", Type.BOOLEAN), Map.entry("Integer", Type.INTEGER_OBJECT),
      Map.entry("Long", Type.LONG_OBJECT), Map.entry("Float", Type.FLOAT_OBJECT),
      Map.entry("Double", Type.DOUBLE_OBJECT), Map.entry("Boolean", Type.BOOLEAN_OBJECT),
      Map.entry("String", Type.STRING), Map.entry("Object", Type.OBJECT), Map.entry("Buffer", Type.BUFFER),
      Map.entry("List", Type.LIST), Map.entry("Map", Type.MAP));

  private static final List<String> EXCEPTION_CLASSES = List.of("Exception", "RuntimeException",
      "IllegalArgumentException", "IllegalStateException");

  private final String fileName;

  private AstBuilder(String fileName) {
    this.fileName = fileName;
  }

  /**
   * How deep brackets and runs of unary operators may nest in a script: far beyond any real script, and shallow
   * enough that parsing and running it never overflow the stack.
   */
  public static final int MAX_NESTING = 256;

  private static final Set<String> OPENING = Set.of("(", "{", "[");
  private static final Set<String> CLOSING = Set.of(")", "}", "]");
  private static final Set<String> UNARY = Set.of("-", "+", "!", "~", "++", "--");

  /** Parses {@code source}; {@code fileName} is used in messages only. */
  public static List<Statement> parse(String source, String fileName) {
    checkNesting(source, fileName);
    try {
      return build(source, fileName);
    } catch (StackOverflowError deep) {
      // statements or operator chains nested within the limit yet too deep for this thread's stack
      throw new ScriptException(new SourceLocation(fileName, 1, 1), "script nested too deeply to read");
    }
  }

  /** Refuses brackets or unary operators nested deeper than {@link #MAX_NESTING}, at the first one too deep. */
  private static void checkNesting(String source, String fileName) {
    MemoryScriptLexer lexer = new MemoryScriptLexer(CharStreams.fromString(source));
    lexer.removeErrorListeners();
    int brackets = 0;
    int unary = 0;
    for (Token token = lexer.nextToken(); token.getType() != Token.EOF; token = lexer.nextToken()) {
      String text = token.getText();
      if (OPENING.contains(text)) {
        brackets++;
      } else if (CLOSING.contains(text)) {
        brackets = Math.max(0, brackets - 1);
      }
      unary = UNARY.contains(text) ? unary + 1 : 0;
      if (brackets + unary > MAX_NESTING) {
        throw new ScriptException(new SourceLocation(fileName, token.getLine(), token.getCharPositionInLine() + 1),
            "nested more than " + MAX_NESTING + " levels deep (brackets and unary operators)");
      }
    }
  }

  private static List<Statement> build(String source, String fileName) {
    AstBuilder builder = new AstBuilder(fileName);
    MemoryScriptLexer lexer = new MemoryScriptLexer(CharStreams.fromString(source));
    MemoryScriptParser parser = new MemoryScriptParser(new CommonTokenStream(lexer));
    BaseErrorListener failFast = new BaseErrorListener() {
      @Override
      public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int column, String msg,
          RecognitionException e) {
        String message = "syntax error: " + msg;
        if (offendingSymbol instanceof Token token && token.getType() == MemoryScriptLexer.UNEXPECTED_CHARACTER) {
          message = "syntax error: unexpected character '" + token.getText() + "'";
        }
        throw new ScriptException(new SourceLocation(fileName, line, column + 1), message);
      }
    };
    lexer.removeErrorListeners();
    lexer.addErrorListener(failFast);
    parser.removeErrorListeners();
    parser.addErrorListener(failFast);
    ScriptContext tree = parser.script();
    List<Statement> statements = new ArrayList<>();
    for (StatementContext statement : tree.statement()) {
      Statement built = builder.statement(statement);
      if (built != null) {
        statements.add(built);
      }
    }
    return statements;
  }

  private Position position(ParserRuleContext context) {
    return position(context.getStart());
  }

  private static Position position(Token token) {
    return new Position(token.getLine(), token.getCharPositionInLine() + 1);
  }

  private ScriptException unsupported(ParserRuleContext context, String construct) {
    return unsupported(context.getStart(), construct);
  }

  private ScriptException unsupported(Token at, String construct) {
    return new ScriptException(new SourceLocation(fileName, at.getLine(), at.getCharPositionInLine() + 1),
        construct + " is outside the memory-script subset");
  }

  private ScriptException error(Token at, String message) {
    return new ScriptException(new SourceLocation(fileName, at.getLine(), at.getCharPositionInLine() + 1), message);
  }

  // ---------------------------------------------------------------- statements

  /** Returns null for statements without effect (imports, empty statements). */
  private Statement statement(StatementContext context) {
    Position at = position(context);
    if (context instanceof BlockStatementContext block) {
      return block(block.block());
    }
    if (context instanceof ImportStatementContext || context instanceof EmptyStatementContext) {
      return null;
    }
    if (context instanceof DeclarationStatementContext declaration) {
      return declaration(declaration.localDeclaration());
    }
    if (context instanceof IfStatementContext ifStatement) {
      Statement otherwise = ifStatement.ELSE() == null ? null : nonNull(ifStatement.statement(1));
      return new Ast.If(at, expression(ifStatement.expression()), nonNull(ifStatement.statement(0)), otherwise);
    }
    if (context instanceof ForStatementContext forStatement) {
      List<Statement> init = new ArrayList<>();
      if (forStatement.forInit() != null) {
        ForInitContext forInit = forStatement.forInit();
        if (forInit.localDeclaration() != null) {
          init.add(declaration(forInit.localDeclaration()));
        } else {
          for (ExpressionContext expression : forInit.expressionList().expression()) {
            init.add(new Ast.ExpressionStatement(position(expression), expression(expression)));
          }
        }
      }
      Expression condition = forStatement.expression() == null ? null : expression(forStatement.expression());
      List<Expression> updates = forStatement.expressionList() == null ? List.of()
          : expressions(forStatement.expressionList());
      return new Ast.For(at, init, condition, updates, nonNull(forStatement.statement()));
    }
    if (context instanceof ForEachStatementContext forEach) {
      Type type = forEach.type() == null ? null : type(forEach.type());
      return new Ast.ForEach(at, type, forEach.IDENTIFIER().getText(), expression(forEach.expression()),
          nonNull(forEach.statement()));
    }
    if (context instanceof WhileStatementContext whileStatement) {
      return new Ast.While(at, expression(whileStatement.expression()), nonNull(whileStatement.statement()));
    }
    if (context instanceof DoWhileStatementContext doWhile) {
      return new Ast.DoWhile(at, nonNull(doWhile.statement()), expression(doWhile.expression()));
    }
    if (context instanceof BreakStatementContext) {
      return new Ast.Break(at);
    }
    if (context instanceof ContinueStatementContext) {
      return new Ast.Continue(at);
    }
    if (context instanceof ReturnStatementContext returnStatement) {
      return new Ast.Return(at,
          returnStatement.expression() == null ? null : expression(returnStatement.expression()));
    }
    if (context instanceof ThrowStatementContext throwStatement) {
      return throwStatement(at, throwStatement);
    }
    if (context instanceof ExpressionStatementContext expressionStatement) {
      return new Ast.ExpressionStatement(at, expression(expressionStatement.expression()));
    }
    if (context instanceof SwitchStatementContext) {
      throw unsupported(context, "a 'switch' statement");
    }
    if (context instanceof TryStatementContext) {
      throw unsupported(context, "a 'try' statement");
    }
    if (context instanceof SynchronizedStatementContext) {
      throw unsupported(context, "a 'synchronized' block");
    }
    if (context instanceof MethodDeclarationContext method) {
      throw unsupported(context, "the declaration of method '" + method.IDENTIFIER().getText() + "'");
    }
    if (context instanceof ClassDeclarationContext) {
      throw unsupported(context, "a class declaration");
    }
    throw unsupported(context, "the statement '" + context.getText() + "'");
  }

  /** A statement used as a loop or branch body: an empty one becomes an empty block. */
  private Statement nonNull(StatementContext context) {
    Statement statement = statement(context);
    return statement != null ? statement : new Ast.Block(position(context), List.of());
  }

  private Ast.Block block(BlockContext context) {
    List<Statement> statements = new ArrayList<>();
    for (StatementContext statement : context.statement()) {
      Statement built = statement(statement);
      if (built != null) {
        statements.add(built);
      }
    }
    return new Ast.Block(position(context), statements);
  }

  private Ast.Declaration declaration(LocalDeclarationContext context) {
    Type type = type(context.type());
    List<Ast.Declarator> declarators = new ArrayList<>();
    for (VariableDeclaratorContext declarator : context.variableDeclarator()) {
      Expression initializer = declarator.expression() == null ? null : expression(declarator.expression());
      declarators.add(new Ast.Declarator(position(declarator), declarator.IDENTIFIER().getText(), initializer));
    }
    return new Ast.Declaration(position(context), type, declarators);
  }

  private Statement throwStatement(Position at, ThrowStatementContext context) {
    if (context.expression() instanceof NewObjectContext creation) {
      String className = creation.qualifiedName().getText();
      String simpleName = className.substring(className.lastIndexOf('.') + 1);
      List<Expression> arguments = creation.arguments().expressionList() == null ? List.of()
          : expressions(creation.arguments().expressionList());
      if (EXCEPTION_CLASSES.contains(simpleName) && arguments.size() <= 1) {
        return new Ast.Throw(at, simpleName, arguments.isEmpty() ? null : arguments.get(0));
      }
    }
    throw unsupported(context.expression(),
        "throwing anything but 'new Exception(\"message\")' or 'new RuntimeException(\"message\")'");
  }

  private Type type(TypeContext context) {
    if (context.getText().endsWith("]")) {
      throw unsupported(context, "the array type '" + context.getText() + "'");
    }
    String name = context.primitiveType() != null ? context.primitiveType().getText()
        : context.qualifiedName().getText();
    String simpleName = name.substring(name.lastIndexOf('.') + 1);
    Type type = TYPE_NAMES.get(simpleName);
    if (type == null) {
      if (context.primitiveType() != null) {
        throw unsupported(context, "the type '" + name + "'");
      }
      throw error(context.getStart(), "unknown type '" + name + "' (memory scripts know int, long, float, double,"
          + " boolean, their boxed forms, String, Object, Buffer, List and Map)");
    }
    return type;
  }

  // ---------------------------------------------------------------- expressions

  private List<Expression> expressions(ExpressionListContext context) {
    List<Expression> expressions = new ArrayList<>();
    for (ExpressionContext expression : context.expression()) {
      expressions.add(expression(expression));
    }
    return expressions;
  }

  private List<Expression> arguments(ArgumentsContext context) {
    return context.expressionList() == null ? List.of() : expressions(context.expressionList());
  }

  private Expression expression(ExpressionContext context) {
    Position at = position(context);
    if (context instanceof ParenthesizedContext parenthesized) {
      return expression(parenthesized.expression());
    }
    if (context instanceof LiteralExpressionContext literal) {
      return new Ast.Literal(at, literal(literal.literal()));
    }
    if (context instanceof NameContext name) {
      return new Ast.Name(at, name.IDENTIFIER().getText());
    }
    if (context instanceof FunctionCallContext call) {
      throw unsupported(context, "the call of function '" + call.IDENTIFIER().getText()
          + "' (scripts may call methods of buffers, lists, maps and Math only)");
    }
    if (context instanceof NewObjectContext creation) {
      throw unsupported(context, "creating objects ('new " + creation.qualifiedName().getText() + "')");
    }
    if (context instanceof NewArrayContext || context instanceof ArrayLiteralContext) {
      throw unsupported(context, "creating arrays");
    }
    if (context instanceof ArrayAccessContext) {
      throw unsupported(context, "array access '" + context.getText() + "'");
    }
    if (context instanceof InstanceOfContext) {
      throw unsupported(context, "the 'instanceof' operator");
    }
    if (context instanceof LambdaContext) {
      throw unsupported(context, "a lambda expression");
    }
    if (context instanceof MethodCallContext call) {
      String method = call.IDENTIFIER().getText();
      List<Expression> arguments = arguments(call.arguments());
      if (call.expression() instanceof NameContext className && StaticMembers.isClass(className.getText())) {
        if (!StaticMembers.hasMethod(className.getText(), method)) {
          throw error(call.IDENTIFIER().getSymbol(), "unknown method '" + className.getText() + "." + method
              + "' (supported: " + StaticMembers.methodNames(className.getText()) + ")");
        }
        return new Ast.StaticCall(position(call.IDENTIFIER().getSymbol()), className.getText(), method, arguments);
      }
      return new Ast.MethodCall(position(call.IDENTIFIER().getSymbol()), expression(call.expression()), method,
          arguments);
    }
    if (context instanceof FieldAccessContext field) {
      String owner = field.expression().getText();
      Object value = StaticMembers.field(owner, field.IDENTIFIER().getText());
      if (value == null) {
        throw unsupported(context, "the field access '" + context.getText() + "'");
      }
      return new Ast.StaticField(at, owner, field.IDENTIFIER().getText(), value);
    }
    if (context instanceof PostfixIncrementContext postfix) {
      return increment(at, postfix.expression(), postfix.postfix, false);
    }
    if (context instanceof PrefixIncrementContext prefix) {
      return increment(at, prefix.expression(), prefix.prefix, true);
    }
    if (context instanceof UnaryContext unary) {
      return new Ast.Unary(at, unary.prefix.getText(), expression(unary.expression()));
    }
    if (context instanceof CastContext cast) {
      String name = cast.primitiveType().getText();
      Type type = TYPE_NAMES.get(name);
      if (type == null || type == Type.BOOLEAN) {
        throw unsupported(context, "the cast to '" + name + "'");
      }
      return new Ast.Cast(at, type, expression(cast.expression()));
    }
    if (context instanceof BinaryContext binary) {
      String operator = binary.bop.getText();
      return new Ast.Binary(position(binary.bop), operator, expression(binary.expression(0)),
          expression(binary.expression(1)));
    }
    if (context instanceof ShiftContext shift) {
      checkAdjacent(shift.shiftOperator());
      return new Ast.Binary(position(shift.shiftOperator()), shift.shiftOperator().getText(),
          expression(shift.expression(0)), expression(shift.expression(1)));
    }
    if (context instanceof ConditionalContext conditional) {
      return new Ast.Conditional(at, expression(conditional.expression(0)), expression(conditional.expression(1)),
          expression(conditional.expression(2)));
    }
    if (context instanceof AssignmentContext assignment) {
      if (!(assignment.expression(0) instanceof NameContext target)) {
        throw unsupported(assignment.expression(0),
            "assigning to '" + assignment.expression(0).getText() + "' (only variables can be assigned)");
      }
      String operator = assignment.aop.getText();
      operator = operator.substring(0, operator.length() - 1);
      return new Ast.Assignment(position(assignment.aop), target.getText(), operator,
          expression(assignment.expression(1)));
    }
    throw unsupported(context, "the expression '" + context.getText() + "'");
  }

  private Expression increment(Position at, ExpressionContext target, Token operator, boolean prefix) {
    if (!(target instanceof NameContext name)) {
      throw unsupported(target, "incrementing '" + target.getText() + "' (only variables can be incremented)");
    }
    return new Ast.Increment(at, name.getText(), operator.getText().equals("++") ? 1 : -1, prefix);
  }

  /** '>' '>' must be written without blanks to be a shift. */
  private void checkAdjacent(ShiftOperatorContext operator) {
    Token previous = null;
    for (int i = 0; i < operator.getChildCount(); i++) {
      Token token = ((org.antlr.v4.runtime.tree.TerminalNode) operator.getChild(i)).getSymbol();
      if (previous != null && token.getStartIndex() != previous.getStopIndex() + 1) {
        throw error(previous, "syntax error: '" + operator.getText() + "' must be written without blanks");
      }
      previous = token;
    }
  }

  private Object literal(LiteralContext context) {
    Token token = context.getStart();
    String text = token.getText();
    switch (token.getType()) {
      case MemoryScriptLexer.INTEGER_LITERAL:
        return integerLiteral(token, text);
      case MemoryScriptLexer.FLOATING_LITERAL:
        char last = Character.toLowerCase(text.charAt(text.length() - 1));
        if (last == 'f') {
          return Float.parseFloat(text.substring(0, text.length() - 1));
        }
        return Double.parseDouble(last == 'd' ? text.substring(0, text.length() - 1) : text);
      case MemoryScriptLexer.STRING_LITERAL:
        return unescape(token, text.substring(1, text.length() - 1));
      case MemoryScriptLexer.CHAR_LITERAL:
        throw unsupported(token, "the character literal " + text + " (use a string)");
      case MemoryScriptLexer.TRUE:
        return Boolean.TRUE;
      case MemoryScriptLexer.FALSE:
        return Boolean.FALSE;
      default:
        return null;
    }
  }

  /** Like BeanShell: a literal that does not fit its type (without the sign) is an error. */
  private Object integerLiteral(Token token, String text) {
    boolean isLong = text.endsWith("l") || text.endsWith("L");
    String digits = isLong ? text.substring(0, text.length() - 1) : text;
    int radix = 10;
    if (digits.startsWith("0x") || digits.startsWith("0X")) {
      radix = 16;
      digits = digits.substring(2);
    } else if (digits.length() > 1 && digits.startsWith("0")) {
      radix = 8;
      digits = digits.substring(1);
    }
    try {
      return isLong ? (Object) Long.parseLong(digits, radix) : (Object) Integer.parseInt(digits, radix);
    } catch (NumberFormatException e) {
      throw error(token, "number too big for " + (isLong ? "long" : "int") + ": " + text);
    }
  }

  private String unescape(Token token, String body) {
    StringBuilder text = new StringBuilder(body.length());
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c != '\\') {
        text.append(c);
        continue;
      }
      char escaped = body.charAt(++i);
      switch (escaped) {
        case 'n' -> text.append('\n');
        case 't' -> text.append('\t');
        case 'r' -> text.append('\r');
        case 'b' -> text.append('\b');
        case 'f' -> text.append('\f');
        case '0', '1', '2', '3', '4', '5', '6', '7' -> {
          int end = i;
          while (end < body.length() && end < i + 3 && body.charAt(end) >= '0' && body.charAt(end) <= '7') {
            end++;
          }
          text.append((char) Integer.parseInt(body.substring(i, end), 8));
          i = end - 1;
        }
        case 'u' -> {
          if (i + 5 > body.length()) {
            throw error(token, "malformed unicode escape in string literal");
          }
          text.append((char) Integer.parseInt(body.substring(i + 1, i + 5), 16));
          i += 4;
        }
        case '"', '\'', '\\' -> text.append(escaped);
        default -> throw error(token, "unknown escape sequence '\\" + escaped + "' in string literal");
      }
    }
    return text.toString();
  }
}
