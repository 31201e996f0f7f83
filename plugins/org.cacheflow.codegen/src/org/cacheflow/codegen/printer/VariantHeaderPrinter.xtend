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
		/* iterations whose variant the configuration core may have chosen before every core read it */
		#define CF_VARIANT_RING 64
		extern int cf_variant[CF_VARIANT_RING];
		extern cf_barrier cf_variant_change;
		«IF program.meetsEveryIteration»
			extern pthread_barrier_t cf_variant_barrier;
		«ENDIF»
		«FOR core : program.frame().cores.filter[index != program.configurationCore()]»
			extern cf_flag cf_variant_chosen_«core.index»; /* the variants chosen, for core «core.index» */
			extern cf_flag cf_variant_read_«core.index»; /* the variants core «core.index» has read */
		«ENDFOR»
		«FOR buffer : program.frame().buffers.filter[allocated]»
			extern uint8_t *«buffer.name»; /* «buffer.bytes» bytes, core «buffer.home»: «buffer.description.comment» */
		«ENDFOR»
		«FOR v : 0 ..< program.variants().size»

			/* variant «v + 1»: «program.labels().get(v).comment» */
			«program.rename(v, new HeaderPrinter(program.variants().get(v)).objectDeclarations)»
		«ENDFOR»
	'''
}
