// PREESM parameter and rate expressions, as PREESM evaluates them with JEP 2.4 (org.nfunk.jep):
// the precedence ladder of JEP's Parser.jjt, from loosest to tightest:
//   ||  <  &&  <  == !=  <  < <= > >=  <  + -  <  * / %  <  unary - + !  <  ^ (right-associative)
// so -2^2 = -(2^2) and 2^-1 is allowed, as in JEP. Functions are checked against the table in
// org.cacheflow.model.expression.Functions when the tree is built, not here.
grammar Expression;

formula : expr EOF ;

expr
  : LPAREN expr RPAREN                                   # parens
  | NAME LPAREN (expr (COMMA expr)*)? RPAREN             # call
  | NUMBER                                               # number
  | NAME                                                 # variable
  | <assoc=right> expr op=CARET expr                     # power
  | op=(MINUS | PLUS | NOT) expr                         # unary
  | expr op=(STAR | SLASH | PERCENT) expr                # multiplicative
  | expr op=(PLUS | MINUS) expr                          # additive
  | expr op=(LT | LE | GT | GE) expr                     # relational
  | expr op=(EQ | NE) expr                               # equality
  | expr op=AND expr                                     # and
  | expr op=OR expr                                      # or
  ;

NUMBER : DIGITS ('.' DIGITS?)? EXPONENT? | '.' DIGITS EXPONENT? ;
NAME : [a-zA-Z_] [a-zA-Z_0-9]* ;

LPAREN : '(' ;
RPAREN : ')' ;
COMMA : ',' ;
CARET : '^' ;
PLUS : '+' ;
MINUS : '-' ;
STAR : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
NOT : '!' ;
LE : '<=' ;
GE : '>=' ;
LT : '<' ;
GT : '>' ;
EQ : '==' ;
NE : '!=' ;
AND : '&&' ;
OR : '||' ;

WS : [ \t\r\n]+ -> skip ;

// Anything else is reported by the lexer as a syntax error at its column.

fragment DIGITS : [0-9]+ ;
fragment EXPONENT : [eE] [+-]? DIGITS ;
