package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.VariantProgram

/**
 * {@code core_N.c} of a program holding several variants ({@link VariantProgram}): every variant's flags and
 * buffers of this core, then per iteration the configuration actors (on their core), the barrier where every core
 * learns the variant, and that variant's statements for this core.
 */
class VariantCorePrinter extends CorePrinter {

	val VariantProgram program
	val int index

	new(VariantProgram program, int index) {
		super(program.frame(), program.frame().cores.get(index))
		this.program = program
		this.index = index
	}

	/** The printer of a variant's own core (null when the variant runs on fewer cores). */
	def private CorePrinter of(int variant) {
		val core = VariantProgram.core(program.variants().get(variant), index)
		if (core === null) null else new CorePrinter(program.variants().get(variant), core)
	}

	override definitions() '''
		#include <cacheflow/dynparam.h>
		«FOR v : 0 ..< program.variants().size»
			«IF of(v) !== null && of(v).definitions.length > 0»
				/* variant «v + 1»: «program.labels().get(v).comment» */
				«program.rename(v, of(v).definitions)»
			«ENDIF»
		«ENDFOR»
	'''

	override allocations() '''
		«super.allocations»
		«FOR v : 0 ..< program.variants().size»
			«IF of(v) !== null»
				«program.rename(v, of(v).flagInits)»
			«ENDIF»
		«ENDFOR»
		«IF of(0) !== null»
			«FOR statement : program.variants().get(0).cores.get(index).init»
				«program.rename(0, of(0).initStatement(statement))»
			«ENDFOR»
		«ENDIF»
		/* the iterations each variant has run: its flags, slots and semaphores count them */
		long cf_variant_runs[«program.variants().size»] = {0};
	'''

	override body() '''
		«IF index == program.configurationCore()»
			«configuration»
		«ENDIF»
		/* every core has completed the previous iteration and learns this iteration's variant */
		cf_gen_barrier_wait(&cf_variant_barrier);
		switch (cf_variant[iteration & 1]) {
		«FOR v : 0 ..< program.variants().size»
			«IF of(v) !== null»
				case «v»: {
				    /* variant «v + 1»: «program.labels().get(v).comment» */
				    const long iteration = cf_variant_runs[«v»]++;
				    (void)iteration;
				    «FOR statement : program.variants().get(v).cores.get(index).loop.filter[!VariantProgram.configures(it)]»
				    	«program.rename(v, of(v).statement(statement))»
				    «ENDFOR»
				    break;
				}
			«ENDIF»
		«ENDFOR»
		default:
		    break;
		}
	'''

	/**
	 * The configuration actors fired, then the variant of the values they set (the program stops, with a message,
	 * before any other actor sees a value no variant was planned for).
	 */
	def private configuration() '''
		{
		    «FOR a : program.parameters()»
		    	«a.type» «paramVariable(a)» = 0;
		    «ENDFOR»
		    «FOR call : program.configurations()»
		    	«of(0).actorCall(call)»
		    «ENDFOR»
		    static const char *const actors[] = {«FOR a : program.parameters() SEPARATOR ', '»«string(a.actor)»«ENDFOR»};
		    static const char *const parameters[] = {«FOR a : program.parameters() SEPARATOR ', '»«string(a.parameter)»«ENDFOR»};
		    const long long values[] = {«FOR a : program.parameters() SEPARATOR ', '»(long long)«paramVariable(a)»«ENDFOR»};
		    /* per variant, its values */
		    static const long long planned[] = {«FOR row : program.planned() SEPARATOR ', '»«FOR value : row SEPARATOR ', '»«value»LL«ENDFOR»«ENDFOR»};
		    cf_variant[iteration & 1] = cf_gen_variant_check(iteration, «program.parameters().size», actors, parameters, values, «program.variants().size», planned);
		}
	'''

}
