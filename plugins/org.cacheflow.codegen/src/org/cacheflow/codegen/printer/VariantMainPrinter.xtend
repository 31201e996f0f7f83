package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.VariantProgram

/**
 * {@code main.c} of a program holding several variants ({@link VariantProgram}): every variant's objects, made
 * before the cores start and destroyed after, the variant chosen for the iteration and the barrier where every core
 * learns it.
 */
class VariantMainPrinter extends MainPrinter {

	val VariantProgram program

	new(VariantProgram program) {
		super(program.frame())
		this.program = program
	}

	override objectGlobals() '''
		/* the variant of iteration i, in cf_variant[i & 1], chosen by the configuration actors; every core reads it after
		 * cf_variant_barrier, before any core can pass the next barrier and choose the variant of iteration i + 2 */
		int cf_variant[2];
		pthread_barrier_t cf_variant_barrier;
		«FOR v : 0 ..< program.variants().size»

			/* variant «v + 1»: «program.labels().get(v).comment» */
			«program.rename(v, new MainPrinter(program.variants().get(v)).objectGlobals)»
		«ENDFOR»
	'''

	override objects() '''
		cf_gen_check(-pthread_barrier_init(&cf_variant_barrier, NULL, «coreCount»), "pthread_barrier_init");
		«FOR v : 0 ..< program.variants().size»
			«program.rename(v, new MainPrinter(program.variants().get(v)).objects)»
		«ENDFOR»
	'''

	override destroyObjects() '''
		pthread_barrier_destroy(&cf_variant_barrier);
		«FOR v : 0 ..< program.variants().size»
			«program.rename(v, new MainPrinter(program.variants().get(v)).destroyObjects)»
		«ENDFOR»
	'''
}
