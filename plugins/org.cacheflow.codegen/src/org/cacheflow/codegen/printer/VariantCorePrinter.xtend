package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.VariantProgram

/**
 * {@code core_N.c} of a program holding several variants ({@link VariantProgram}): every variant's flags and
 * buffers of this core, then per iteration the configuration actors (on their core), the hand-off of the variant
 * they select to every other core, the drain where the variant changes (and, entering a variant with channels, their
 * reset), and that variant's statements for this core.
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
		if (core === null) null else new VariantStatementPrinter(program.variants().get(variant), core)
	}

	/** Whether this core fires the configuration actors (and hands their variant to the others). */
	def private boolean configures() {
		index == program.configurationCore()
	}

	/** The cores that learn the variant from the configuration core. */
	def private readers() {
		program.frame().cores.map[it.index].filter[it != program.configurationCore()]
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
		«IF configures»
			«FOR reader : readers»
				cf_gen_check(cf_flag_init(&cf_variant_read_«reader», 0, 0), "cf_flag_init(cf_variant_read_«reader»)");
			«ENDFOR»
		«ELSE»
			cf_gen_check(cf_flag_init(&cf_variant_chosen_«index», 0, 0), "cf_flag_init(cf_variant_chosen_«index»)");
		«ENDIF»
		«IF of(0) !== null»
			/* init prototypes, with variant 1's values (entering a variant whose values they take runs them again) */
			«FOR statement : program.variants().get(0).cores.get(index).init»
				«program.rename(0, of(0).initStatement(statement))»
			«ENDFOR»
		«ENDIF»
		/* the iterations each variant has run: its flags, slots and semaphores count them */
		long cf_variant_runs[«program.variants().size»] = {0};
		/* the variant of the previous iteration (variant 1's init prototypes ran above) */
		int cf_previous_variant = 0;
		«carriedFlags»
	'''

	/** The persistent delays' channels this core receives: whether each still holds the message main primed it with. */
	def private carriedFlags() '''
		«FOR c : program.carriedStates().filter[channel.receiver == index]»
			int «primed(c)» = 1; /* «VariantProgram.prefix(c.variant)»«c.channel.name» still holds its zero message */
		«ENDFOR»
	'''

	def private primed(VariantProgram.CarriedState c) '''«VariantProgram.prefix(c.variant)»«c.channel.name»_primed'''

	/**
	 * Where the variant changes, the persistent delays a variant's channel carries between two cores, first half: the
	 * core that receives a channel of the variant left takes the message its last iteration sent (the state of this
	 * iteration) into the state every variant shares, in this iteration's copy.
	 */
	def private handOverLeft() '''
		«IF !program.carriedStates().empty»
			/* persistent delays a variant's channel carries between cores: the variant left hands its last message to
			 * the state every variant shares, the variant entered sends it in its channel (below, once every core
			 * settled) */
			switch (cf_previous_variant) {
			«FOR v : 0 ..< program.variants().size»
				«IF program.carriedStates().exists[variant == v && channel.receiver == index]»
					case «v»:
					    «FOR c : program.carriedStates().filter[variant == v && channel.receiver == index]»
					    	{
					    	    const uint8_t *message = cf_gen_acquire(«name(c)», "acquire «name(c)»");
					    	    memcpy(«c.state.name» + (iteration & 1) * «bytes(c.state.bytes)», message, «bytes(c.state.bytes)»);
					    	    cf_gen_release(«name(c)», "release «name(c)»");
					    	    «primed(c)» = 0;
					    	}
					    «ENDFOR»
					    break;
				«ENDIF»
			«ENDFOR»
			default:
			    break;
			}
		«ENDIF»
	'''

	/**
	 * Second half, once every core took its part of the first: the core that sends a channel of the variant entered
	 * sends that copy as its next message, and the core that receives it drops first the zero message main primed the
	 * channel with, if no iteration took it.
	 */
	def private handOverEntered() '''
		«IF !program.carriedStates().empty»
			switch (cf_this_variant) {
			«FOR v : 0 ..< program.variants().size»
				«IF program.carriedStates().exists[variant == v && (channel.receiver == index || channel.sender == index)]»
					case «v»:
					    «FOR c : program.carriedStates().filter[variant == v && channel.receiver == index]»
					    	if («primed(c)») {
					    	    (void)cf_gen_acquire(«name(c)», "acquire «name(c)»");
					    	    cf_gen_release(«name(c)», "release «name(c)»");
					    	    «primed(c)» = 0;
					    	}
					    «ENDFOR»
					    «FOR c : program.carriedStates().filter[variant == v && channel.sender == index]»
					    	{
					    	    uint8_t *message = cf_gen_reserve(«name(c)», "reserve «name(c)»");
					    	    memcpy(message, «c.state.name» + (iteration & 1) * «bytes(c.state.bytes)», «bytes(c.state.bytes)»);
					    	    cf_gen_commit(«name(c)», «bytes(c.state.bytes)», "commit «name(c)»");
					    	}
					    «ENDFOR»
					    break;
				«ENDIF»
			«ENDFOR»
			default:
			    break;
			}
		«ENDIF»
	'''

	def private name(VariantProgram.CarriedState c) '''«VariantProgram.prefix(c.variant)»«c.channel.name»'''

	override body() '''
		«IF configures»
			«configuration»
		«ELSE»
			/* the variant the configuration core chose for this iteration */
			cf_flag_wait(&cf_variant_chosen_«index», (int64_t)iteration + 1);
			const int cf_this_variant = cf_variant[iteration % CF_VARIANT_RING];
			if ((iteration + 1) % (CF_VARIANT_RING / 2) == 0)
			    cf_flag_raise(&cf_variant_read_«index», (int64_t)iteration + 1); /* the slots up to this one may be written again */
		«ENDIF»
		if (cf_this_variant != cf_previous_variant) {
		    /* the variant changes: every core has completed every iteration of the previous one before any core runs
		     * this one (their buffers share memory; the previous variant's channels and flags are left quiet) */
		    cf_barrier_wait(&cf_variant_change);
		    «handOverLeft»
		    «entering»
		    «resetting»
		    «settling»
		    «handOverEntered»
		    cf_previous_variant = cf_this_variant;
		}
		«IF !program.sharedStates().empty»
			/* the persistent delays' states alternate their copies with the program's iterations, whichever variant runs */
			const long «VariantStatementPrinter.PROGRAM_ITERATION» = iteration;
			(void)«VariantStatementPrinter.PROGRAM_ITERATION»;
		«ENDIF»
		switch (cf_this_variant) {
		«FOR v : 0 ..< program.variants().size»
			case «v»: {
			    /* variant «v + 1»: «program.labels().get(v).comment» */
			    «IF of(v) !== null»
			    	const long iteration = cf_variant_runs[«v»]++;
			    	(void)iteration;
			    	«FOR statement : program.variants().get(v).cores.get(index).loop.filter[!VariantProgram.configures(it)]»
			    		«program.rename(v, of(v).statement(statement))»
			    	«ENDFOR»
			    «ENDIF»
			    «IF program.variants().get(v).barrier»
			    	/* this variant's cores meet after every iteration (the baseline) */
			    	cf_gen_barrier_wait(&cf_variant_barrier);
			    «ENDIF»
			    break;
			}
		«ENDFOR»
		default:
		    break;
		}
	'''

	/**
	 * Entering a variant: the init prototypes whose values differ from those of the variant left run again (on the
	 * core the variant entered maps them to); every core waits for them before any fires an actor ({@link #settling}).
	 */
	def private entering() '''
		«IF (0 ..< program.variants().size).exists[program.reinitializes(it)]»
			switch (cf_this_variant) {
			«FOR v : 0 ..< program.variants().size»
				«IF program.reinitializes(v)»
					case «v»:
					    «IF of(v) !== null»
					    	«FOR statement : program.variants().get(v).cores.get(index).init»
					    		«val alike = program.initsAlike(statement).filter[it != v].toList»
					    		«IF alike.empty»
					    			«program.rename(v, of(v).initStatement(statement))»
					    		«ELSEIF alike.size < program.variants().size - 1»
					    			if («FOR u : alike SEPARATOR ' && '»cf_previous_variant != «u»«ENDFOR») {
					    			    «program.rename(v, of(v).initStatement(statement))»
					    			}
					    		«ENDIF»
					    	«ENDFOR»
					    «ENDIF»
					    break;
				«ENDIF»
			«ENDFOR»
			default:
			    break;
			}
		«ENDIF»
	'''

	/**
	 * After the work of a change of variant that other cores depend on (the variant left's delay states handed to the
	 * shared states, init calls run again, the variant entered's channels reset), one barrier: every core did its
	 * part before any core sends a delay's state, fires an actor or sends on a channel. All of it runs after the first
	 * barrier, which orders it after every iteration of the variant left; a variant needing none of it takes no
	 * second barrier. The condition is the variant's, so that every core meets the same barriers.
	 */
	def private settling() '''
		«val settles = (0 ..< program.variants().size).filter[settles(it)].toList»
		«IF settles.size == program.variants().size»
			/* every core did its part above before any core sends or fires */
			cf_barrier_wait(&cf_variant_change);
		«ELSEIF !settles.empty»
			if («FOR v : settles SEPARATOR ' || '»cf_this_variant == «v»«ENDFOR») {
			    /* every core did its part above before any core sends or fires */
			    cf_barrier_wait(&cf_variant_change);
			}
		«ENDIF»
	'''

	/**
	 * Whether entering a variant takes the second barrier ({@link #settling}): a delay's state is handed over (any
	 * variant carrying one, left or entered), init calls run again, or channels are reset.
	 */
	def private boolean settles(int v) {
		!program.carriedStates().empty || program.reinitializes(v) || program.sharesChannels(v)
	}

	/**
	 * Entering a variant with channels: their slots share memory with the other variants' (which wrote it since), so
	 * each core resets the channels of that variant it receives (cf_channel_reset: empty, back to the first slot);
	 * every core waits for the resets before any sends ({@link #settling}). Those carrying a delay's state keep slots
	 * of their own and are not reset.
	 */
	def private resetting() '''
		«IF (0 ..< program.variants().size).exists[program.sharesChannels(it)]»
			switch (cf_this_variant) {
			«FOR v : 0 ..< program.variants().size»
				«IF program.sharesChannels(v)»
					case «v»:
					    «FOR channel : program.sharedChannels(v, index)»
					    	cf_gen_check(cf_channel_reset(«channel.name»), "cf_channel_reset(«channel.name»)");
					    «ENDFOR»
					    break;
				«ENDIF»
			«ENDFOR»
			default:
			    break;
			}
		«ENDIF»
	'''

	/**
	 * The configuration actors fired, then the variant of the values they set (the program stops, with a message,
	 * before any other actor sees a value no variant was planned for), handed to the other cores.
	 */
	def private configuration() '''
		int cf_this_variant;
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
		    cf_this_variant = cf_gen_variant_check(iteration, «program.parameters().size», actors, parameters, values, «program.variants().size», planned);
		}
		«IF !readers.empty»
			/* the slot of this iteration's variant was last used CF_VARIANT_RING iterations ago: every other core has read
			 * it (checked every half ring) */
			if (iteration % (CF_VARIANT_RING / 2) == 0) {
			    «FOR reader : readers»
			    	cf_flag_wait(&cf_variant_read_«reader», (int64_t)iteration - CF_VARIANT_RING / 2);
			    «ENDFOR»
			}
			cf_variant[iteration % CF_VARIANT_RING] = cf_this_variant;
			«FOR reader : readers»
				cf_flag_raise(&cf_variant_chosen_«reader», (int64_t)iteration + 1);
			«ENDFOR»
		«ENDIF»
	'''

}
