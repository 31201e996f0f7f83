package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.VariantProgram

/**
 * {@code main.c} of a program holding several variants ({@link VariantProgram}): every variant's objects, made
 * before the cores start and destroyed after, the variants chosen by the configuration core, the flags that hand
 * them to the other cores and the barrier where the variant changes; the channels' slots in one region per
 * receiving core ({@link VariantProgram#channelRegion(int)}), the copy-on-write buffers in one memory file.
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
		/* where the variant changes, every core meets here (spinning first: cacheflow/barrier.h) */
		cf_barrier cf_variant_change;
		«IF program.meetsEveryIteration»
			/* the cores of a variant with the baseline's barrier after every iteration meet here (as PREESM's code) */
			pthread_barrier_t cf_variant_barrier;
		«ENDIF»
		«FOR core : program.frame().cores.filter[index != program.configurationCore()]»
			cf_flag cf_variant_chosen_«core.index» = CF_FLAG_INIT;
			cf_flag cf_variant_read_«core.index» = CF_FLAG_INIT;
		«ENDFOR»
		«FOR buffer : program.frame().buffers.filter[allocated]»
			uint8_t *«buffer.name»;
		«ENDFOR»
		«FOR core : program.channelCores»
			/* the slots of the channels core «core» receives, each variant's at offsets of its own */
			uint8_t *«VariantProgram.channelRegion(core)»;
			size_t «VariantProgram.channelRegion(core)»_bytes;
		«ENDFOR»
		«IF sharesCow»
			/* the copy-on-write buffers of every variant, each variant's at offsets of its own */
			cf_cow_file *cf_variant_cow_file;
		«ENDIF»
		«FOR v : 0 ..< program.variants().size»

			/* variant «v + 1»: «program.labels().get(v).comment» */
			«program.rename(v, new MainPrinter(program.variants().get(v)).objectGlobals)»
		«ENDFOR»
	'''

	override objects() '''
		cf_gen_check(cf_barrier_init(&cf_variant_change, «coreCount», 0), "cf_barrier_init");
		«IF program.meetsEveryIteration»
			cf_gen_check(-pthread_barrier_init(&cf_variant_barrier, NULL, «coreCount»), "pthread_barrier_init");
		«ENDIF»
		«sharedChannels»
		«sharedCowFile»
		«IF sharesCow»
			size_t cf_variant_cow_offset; /* where the next copy-on-write buffer of a variant lies in the file */
		«ENDIF»
		«FOR v : 0 ..< program.variants().size»
			«FOR channel : program.variants().get(v).channels.filter[primed]»
				/* initial tokens: its slots are its own */
				«createChannel(VariantProgram.prefix(v) + channel.name, channel)»
				«primeChannel(VariantProgram.prefix(v) + channel.name, channel)»
			«ENDFOR»
			«IF !program.variants().get(v).cowBuffers.empty»
				cf_variant_cow_offset = 0; /* variant «v + 1»'s copy-on-write buffers, from the file's start */
			«ENDIF»
			«program.rename(v, new MainPrinter(program.variants().get(v)).cowObjects("cf_variant_cow_file"))»
			«program.rename(v, new MainPrinter(program.variants().get(v)).semaphoreObjects)»
		«ENDFOR»
	'''

	/** Whether a variant has copy-on-write buffers, which then lie in one memory file. */
	def private sharesCow() {
		!program.frame().cowBuffers.empty
	}

	/**
	 * The memory file of every variant's copy-on-write buffers: as large as the largest of the variants' (their
	 * whole pages, as this machine's page size makes them: cf_cow_file_span), each variant's buffers one after the
	 * other from its start. No two variants run at once, and every view of a variant is released before the program
	 * leaves it (the barrier where the variant changes), so no view is held while another variant's producer writes
	 * the pages it shows (cow.h); a file page is allocated once, when first written.
	 */
	def private sharedCowFile() '''
		«IF sharesCow»
			{
			    size_t largest = 0, bytes;
			    «FOR v : 0 ..< program.variants().size»
			    	«IF !program.variants().get(v).cowBuffers.empty»
			    	bytes = «FOR cow : program.variants().get(v).cowBuffers SEPARATOR ' + '»«cow.slots» * cf_cow_file_span(«bytes(cow.bytes)»)«ENDFOR»; /* variant «v + 1» */
			    	if (bytes > largest) largest = bytes;
			    	«ENDIF»
			    «ENDFOR»
			    cf_gen_check(cf_cow_file_create(&cf_variant_cow_file, largest), "cf_cow_file_create (the variants' copy-on-write buffers)");
			}
		«ENDIF»
	'''

	/**
	 * The channels whose slots the variants share: per receiving core one region, as large as the largest of the
	 * variants' slots there (as this runtime lays them out: cf_channel_storage_size), each variant's channels one
	 * after the other in it; mapped once, before the cores start, and first touched by the receiving core
	 * (cf_channel_home_here). No two variants run at once, and a core resets the channels it receives of the variant
	 * it enters before any core sends on them.
	 */
	def private sharedChannels() '''
		«FOR core : program.channelCores»
			{
			    /* the channel slots of core «core»: the largest of the variants' */
			    size_t bytes = 0, align = 0, largest = 0, offset;
			    «FOR v : variantsWithChannels(core)»
			    	«channelTable(v, core)»
			    	offset = 0;
			    	for (int i = 0; i < «program.sharedChannels(v, core).size»; i++) {
			    	    cf_gen_check(cf_channel_storage_size(&options_«v + 1»[i], &bytes, &align), names_«v + 1»[i]);
			    	    offset += bytes;
			    	}
			    	if (offset > largest) largest = offset;
			    «ENDFOR»
			    «VariantProgram.channelRegion(core)»_bytes = largest;
			    «VariantProgram.channelRegion(core)» = cf_gen_channel_region(largest, "the channel slots of core «core»");
			    «FOR v : variantsWithChannels(core)»
			    	offset = 0;
			    	for (int i = 0; i < «program.sharedChannels(v, core).size»; i++) {
			    	    cf_gen_check(cf_channel_storage_size(&options_«v + 1»[i], &bytes, &align), names_«v + 1»[i]);
			    	    cf_gen_check(cf_channel_create_in(channels_«v + 1»[i], &options_«v + 1»[i], «VariantProgram.channelRegion(core)» + offset, bytes), names_«v + 1»[i]);
			    	    offset += bytes;
			    	}
			    «ENDFOR»
			}
		«ENDFOR»
	'''

	/** The variants with channels received by a core that share their slots. */
	def private variantsWithChannels(int core) {
		(0 ..< program.variants().size).filter[!program.sharedChannels(it, core).empty].toList
	}

	/** A variant's channels received by a core: their options, variables and names. */
	def private channelTable(int v, int core) '''
		«val channels = program.sharedChannels(v, core)»
		/* variant «v + 1»: «program.labels().get(v).comment» */
		static const cf_channel_options options_«v + 1»[] = {«FOR c : channels SEPARATOR ', '»{.slots = «c.slots», .max_message = «bytes(c.bytes)»}«ENDFOR»};
		cf_channel **const channels_«v + 1»[] = {«FOR c : channels SEPARATOR ', '»&«c.name»«ENDFOR»};
		static const char *const names_«v + 1»[] = {«FOR c : channels SEPARATOR ', '»"cf_channel_create_in(«c.name»)"«ENDFOR»};
	'''

	override destroyObjects() '''
		«IF program.meetsEveryIteration»
			pthread_barrier_destroy(&cf_variant_barrier);
		«ENDIF»
		«FOR v : 0 ..< program.variants().size»
			«program.rename(v, new MainPrinter(program.variants().get(v)).destroyObjects)»
		«ENDFOR»
		«IF sharesCow»
			cf_gen_check(cf_cow_file_destroy(cf_variant_cow_file), "cf_cow_file_destroy");
		«ENDIF»
		«FOR core : program.channelCores»
			cf_gen_channel_region_free(«VariantProgram.channelRegion(core)», «VariantProgram.channelRegion(core)»_bytes);
		«ENDFOR»
	'''

	/** The program's memory: the variants share their buffers, their channels' slots and their copy-on-write buffers. */
	override programMemory() {
		program.memory()
	}
}
