package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.VariantProgram

/**
 * {@code main.c} of a program holding several variants ({@link VariantProgram}): every variant's objects, made
 * before the cores start and destroyed after, the variants chosen by the configuration core, the flags that hand
 * them to the other cores and the barrier where the variant changes.
 */
class VariantMainPrinter extends MainPrinter {

	val VariantProgram program

	new(VariantProgram program) {
		super(program.frame())
		this.program = program
	}

	override objectGlobals() '''
		/* the variant of iteration i, in cf_variant[i % CF_VARIANT_RING], written by the configuration core before it
		 * raises cf_variant_chosen_N to i + 1 for every other core N; a core raises cf_variant_read_N (every half ring)
		 * once it read them, so that no slot is written again before every core read it */
		int cf_variant[CF_VARIANT_RING];
		pthread_barrier_t cf_variant_barrier;
		«FOR core : program.frame().cores.filter[index != program.configurationCore()]»
			cf_flag cf_variant_chosen_«core.index» = CF_FLAG_INIT;
			cf_flag cf_variant_read_«core.index» = CF_FLAG_INIT;
		«ENDFOR»
		«FOR buffer : program.frame().buffers.filter[allocated]»
			uint8_t *«buffer.name»;
		«ENDFOR»
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
