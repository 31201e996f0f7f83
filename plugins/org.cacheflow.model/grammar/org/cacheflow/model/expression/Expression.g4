// Placeholder, replaced by the PREESM expression grammar.
grammar Expression;
expression : NUMBER EOF ;
NUMBER : [0-9]+ ;
WS : [ \t\r\n]+ -> skip ;
