package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.VariantProgram

/** {@code graph.h} of a program holding several variants ({@link VariantProgram}): every variant's objects. */
class VariantHeaderPrinter extends HeaderPrinter {

	val VariantProgram program

	new(VariantProgram program) {
		super(program.frame())
		this.program = program
	}

	override objectDeclarations() '''
		extern int cf_variant[2];
		extern pthread_barrier_t cf_variant_barrier;
		«FOR v : 0 ..< program.variants().size»

			/* variant «v + 1»: «program.labels().get(v).comment» */
			«program.rename(v, new HeaderPrinter(program.variants().get(v)).objectDeclarations)»
		«ENDFOR»
	'''
}
