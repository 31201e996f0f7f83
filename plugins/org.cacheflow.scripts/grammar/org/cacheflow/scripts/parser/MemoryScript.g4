/*
 * The BeanShell subset used by PREESM memory scripts. A few constructs outside the subset (switch, try,
 * method and class declarations, array access, lambdas, instanceof, character literals) are recognised here
 * only so that the AST builder can reject them by name instead of reporting a bare syntax error.
 */
grammar MemoryScript;

script : statement* EOF ;

statement
  : block                                                                   # blockStatement
  | IMPORT STATIC? qualifiedName ('.' '*')? ';'                              # importStatement
  | localDeclaration ';'                                                    # declarationStatement
  | IF '(' expression ')' statement (ELSE statement)?                       # ifStatement
  | FOR '(' forInit? ';' expression? ';' expressionList? ')' statement      # forStatement
  | FOR '(' type? IDENTIFIER ':' expression ')' statement                   # forEachStatement
  | WHILE '(' expression ')' statement                                      # whileStatement
  | DO statement WHILE '(' expression ')' ';'                               # doWhileStatement
  | BREAK ';'                                                               # breakStatement
  | CONTINUE ';'                                                            # continueStatement
  | RETURN expression? ';'                                                  # returnStatement
  | THROW expression ';'                                                    # throwStatement
  | expression ';'                                                          # expressionStatement
  | ';'                                                                     # emptyStatement
  | SWITCH '(' expression ')' '{' .*? '}'                                   # switchStatement
  | TRY block .*? (CATCH | FINALLY) .*? block                               # tryStatement
  | SYNCHRONIZED '(' expression ')' block                                   # synchronizedStatement
  | (type | VOID)? IDENTIFIER '(' parameterList? ')' block                  # methodDeclaration
  | CLASS IDENTIFIER .*? block                                              # classDeclaration
  ;

block : '{' statement* '}' ;

parameterList : type? IDENTIFIER (',' type? IDENTIFIER)* ;

localDeclaration : type variableDeclarator (',' variableDeclarator)* ;

variableDeclarator : IDENTIFIER ('=' expression)? ;

forInit
  : localDeclaration
  | expressionList
  ;

expressionList : expression (',' expression)* ;

type
  : primitiveType ('[' ']')*
  | qualifiedName typeArguments? ('[' ']')*
  ;

primitiveType : BOOLEAN | INT | LONG | FLOAT | DOUBLE | SHORT | BYTE | CHAR ;

typeArguments : '<' (type (',' type)*)? '>' ;

qualifiedName : IDENTIFIER ('.' IDENTIFIER)* ;

arguments : '(' expressionList? ')' ;

expression
  : '(' expression ')'                                                      # parenthesized
  | literal                                                                 # literalExpression
  | IDENTIFIER arguments                                                    # functionCall
  | IDENTIFIER                                                              # name
  | NEW qualifiedName arguments                                             # newObject
  | NEW (primitiveType | qualifiedName) ('[' expression? ']')+ arrayInitializer?  # newArray
  | arrayInitializer                                                        # arrayLiteral
  | expression '.' IDENTIFIER arguments                                     # methodCall
  | expression '.' IDENTIFIER                                               # fieldAccess
  | expression '[' expression ']'                                           # arrayAccess
  | expression postfix=('++' | '--')                                        # postfixIncrement
  | prefix=('++' | '--') expression                                         # prefixIncrement
  | prefix=('+' | '-' | '!' | '~') expression                               # unary
  | '(' primitiveType ')' expression                                        # cast
  | expression bop=('*' | '/' | '%') expression                             # binary
  | expression bop=('+' | '-') expression                                   # binary
  | expression shift=shiftOperator expression                               # shift
  | expression bop=('<' | '<=' | '>' | '>=') expression                     # binary
  | expression INSTANCEOF type                                              # instanceOf
  | expression bop=('==' | '!=') expression                                 # binary
  | expression bop='&' expression                                           # binary
  | expression bop='^' expression                                           # binary
  | expression bop='|' expression                                           # binary
  | expression bop='&&' expression                                          # binary
  | expression bop='||' expression                                          # binary
  | <assoc=right> expression '?' expression ':' expression                  # conditional
  | <assoc=right> expression aop=('=' | '+=' | '-=' | '*=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=' | '>>>=') expression  # assignment
  | lambdaParameters '->' (expression | block)                              # lambda
  ;

// '>' '>' rather than one '>>' token, so that nested generics such as List<List<Buffer>> still lex
shiftOperator
  : '<' '<'
  | '>' '>' '>'
  | '>' '>'
  ;

lambdaParameters
  : IDENTIFIER
  | '(' (IDENTIFIER (',' IDENTIFIER)*)? ')'
  ;

arrayInitializer : '{' (expression (',' expression)* ','?)? '}' ;

literal
  : INTEGER_LITERAL
  | FLOATING_LITERAL
  | STRING_LITERAL
  | CHAR_LITERAL
  | TRUE
  | FALSE
  | NULL
  ;

// Keywords
BOOLEAN : 'boolean' ;
BREAK : 'break' ;
BYTE : 'byte' ;
CATCH : 'catch' ;
CHAR : 'char' ;
CLASS : 'class' ;
CONTINUE : 'continue' ;
DO : 'do' ;
DOUBLE : 'double' ;
ELSE : 'else' ;
FINALLY : 'finally' ;
FLOAT : 'float' ;
FOR : 'for' ;
IF : 'if' ;
IMPORT : 'import' ;
INSTANCEOF : 'instanceof' ;
INT : 'int' ;
LONG : 'long' ;
NEW : 'new' ;
RETURN : 'return' ;
SHORT : 'short' ;
STATIC : 'static' ;
SWITCH : 'switch' ;
SYNCHRONIZED : 'synchronized' ;
THROW : 'throw' ;
TRY : 'try' ;
VOID : 'void' ;
WHILE : 'while' ;
TRUE : 'true' ;
FALSE : 'false' ;
NULL : 'null' ;

INTEGER_LITERAL
  : ('0' | [1-9] [0-9]*) [lL]?
  | '0' [xX] [0-9a-fA-F]+ [lL]?
  | '0' [0-7]+ [lL]?
  ;

FLOATING_LITERAL
  : [0-9]+ '.' [0-9]* EXPONENT? [fFdD]?
  | '.' [0-9]+ EXPONENT? [fFdD]?
  | [0-9]+ EXPONENT [fFdD]?
  | [0-9]+ [fFdD]
  ;

fragment EXPONENT : [eE] [+-]? [0-9]+ ;

STRING_LITERAL : '"' (~["\\\r\n] | '\\' .)* '"' ;

CHAR_LITERAL : '\'' (~['\\\r\n] | '\\' .)+ '\'' ;

IDENTIFIER : [a-zA-Z_$] [a-zA-Z0-9_$]* ;

WHITESPACE : [ \t\r\n\f]+ -> skip ;
LINE_COMMENT : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;

// Anything else reaches the parser, which reports it with its position.
UNEXPECTED_CHARACTER : . ;
