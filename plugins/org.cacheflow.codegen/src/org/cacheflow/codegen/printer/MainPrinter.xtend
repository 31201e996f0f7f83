package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.Channel
import org.cacheflow.codegen.model.CodeProject
import org.cacheflow.plan.memoryplan.ProgramMemory
import org.cacheflow.report.MemoryText

/**
 * {@code main.c}: the buffers and runtime objects, the command line, one thread per core, and what
 * {@code --validate} prints.
 */
class MainPrinter extends CTemplate {

	/** Whether core 0 runs the dispatcher (a dynamic or hybrid schedule), which starts and pins its own workers. */
	val boolean dispatched

	new(CodeProject project) {
		this(project, false)
	}

	new(CodeProject project, boolean dispatched) {
		super(project)
		this.dispatched = dispatched
	}

	override print() '''
		«provenance»
		#include <errno.h>
		#include <stdio.h>
		#include "graph.h"

		«globals»

		«iterationDefault»

		«coreTables»

		int main(int argc, char **argv) {
		    «startUp»

		    «runtimeObjects»

		    «IF project.multiNode»
		    	double seconds = cf_gen_run_cores(node_cores, node_core_count, cf_mpi_pin(node_core_count, options.pin));
		    	«IF !project.synthetic»
		    		cf_mpi_check_stop(argv[0], cf_iterations);
		    	«ENDIF»

		    	if (cf_validate) {
		    	    /* digests, statistics and time of every node, printed by rank 0 as one machine prints them */
		    	    «IF !project.sinks.empty»
		    	    	cf_mpi_gather_digests(cf_sink_parts, CF_GRAPH_SINK_PARTS, part_node);
		    	    «ENDIF»
		    	    cf_mpi_gather_stats();
		    	    seconds = cf_mpi_max_seconds(seconds);
		    	}
		    	if (cf_validate && cf_mpi_rank == 0) {
		    «ELSE»
		    	«IF dispatched»
		    		/* core 0 runs the dispatcher, which starts and pins the workers */
		    		extern int cf_gen_sched_pin, cf_gen_sched_time;
		    		cf_gen_sched_pin = options.pin;
		    		cf_gen_sched_time = options.time;
		    	«ENDIF»
		    	double seconds = cf_gen_run_cores(cores, CF_GRAPH_CORES, «IF dispatched»0«ELSE»options.pin«ENDIF»);

		    	if (cf_validate) {
		    «ENDIF»
		        if (cf_validate == CF_VALIDATE_PREESM) {
		            /* PREESM's lines (sink buffers named as its code generator names them), sorted as its CI compares
		             * them with the project's .validation.hash */
		            «FOR digest : project.preesmDigests»
		            	cf_gen_print_preesm_digest(«string(digest.buffer)», &cf_sink_parts[«digest.part»]);
		            «ENDFOR»
		        } else {
		            «FOR sink : project.sinks»
		            	cf_gen_print_digest(«string(sink.label)», &cf_sink_parts[«sink.firstPart»], «sink.parts»);
		            	«IF sink.note !== null»
		            		printf("%s\n", «string(sink.note)»);
		            	«ENDIF»
		            «ENDFOR»
		        }
		        cf_gen_print_stats(cf_gen_iterations_run(cf_iterations), seconds);
		    }
		    «IF project.multiNode»
		    	if (cf_mpi_rank == 0) cf_gen_print_time(cf_gen_iterations_run(cf_iterations), seconds); /* --time */
		    «ELSE»
		    	cf_gen_print_time(cf_gen_iterations_run(cf_iterations), seconds); /* --time */
		    «ENDIF»

		    «tearDown»
		}
	'''

	/** The run options, digests, barriers, semaphores, buffers, channels and copy-on-write buffers. */
	def private globals() '''
		long cf_iterations;
		int cf_validate;
		«IF !project.sinks.empty»
			cf_md5 cf_sink_parts[CF_GRAPH_SINK_PARTS];
		«ENDIF»
		«IF project.barrier»
			pthread_barrier_t cf_iteration_barrier;
		«ENDIF»
		pthread_barrier_t cf_start_barrier;
		cf_heap *cf_buffer_heap;
		«objectGlobals»
	'''

	/** The globals of the program's objects: semaphores, buffers, channels and copy-on-write buffers. */
	def protected objectGlobals() '''
		«IF project.semaphores > 0»
			sem_t cf_semaphores[«project.semaphores»];
		«ENDIF»

		«FOR buffer : project.buffers»
			uint8_t *«buffer.name»;
		«ENDFOR»
		«FOR channel : project.channels»
			cf_channel *«channel.name»;
		«ENDFOR»
		«FOR cow : project.cowBuffers»
			cf_cow_buffer *«cow.name»[«cow.slots»];
			cf_cow_view *«cow.name»_views[«cow.slots»][«cow.views»];
		«ENDFOR»
	'''

	/** How many iterations run when the command line does not say. */
	def private iterationDefault() '''
		/* As in PREESM's generated code, PREESM_LOOP_SIZE (from the actors' headers, such as preesm.h) bounds the run */
		#ifdef PREESM_LOOP_SIZE
		#define CF_DEFAULT_ITERATIONS ((long)(PREESM_LOOP_SIZE))
		#else
		#define CF_DEFAULT_ITERATIONS 1L
		#endif
	'''

	/** Each core's entry point and, on several nodes, each core's and each sink part's node. */
	def private coreTables() '''
		static void *(*const cores[CF_GRAPH_CORES])(void *) = {«FOR core : project.cores SEPARATOR ', '»core«core.index»_run«ENDFOR»};
		«IF project.multiNode»
			/* the node (MPI rank) of each core */
			static const int core_node[CF_GRAPH_CORES] = {«FOR core : project.cores SEPARATOR ', '»«project.nodeOf(core.index)»«ENDFOR»};
			«IF !project.sinks.empty»
				/* the node that digests each sink part: rank 0 gathers them for --validate */
				static const int part_node[CF_GRAPH_SINK_PARTS] = {«FOR node : project.partNodes SEPARATOR ', '»«node»«ENDFOR»};
			«ENDIF»
		«ENDIF»
	'''

	/** MPI (on several nodes) and the command line. */
	def private startUp() '''
		«IF project.multiNode»
			/* one process per node (MPI rank): every process has the same buffers and runtime objects (memory it does not
			 * touch is never committed) and runs the cores of its node */
			cf_mpi_init(&argc, &argv, «string(project.identifier)», CF_GRAPH_MAX_TAG);
		«ENDIF»
		cf_gen_options options;
		int parsed = cf_gen_parse_arguments(argc, argv, «string(project.identifier)», CF_DEFAULT_ITERATIONS, &options);
		«IF project.multiNode»
			if (parsed) {
			    if (parsed == 1 && cf_mpi_rank == 0)
			        printf("generated for %d nodes: run it with mpirun -np %d %s\n", CF_GRAPH_NODES, CF_GRAPH_NODES, argv[0]);
			    cf_mpi_finalize();
			    return parsed == 1 ? 0 : 2;
			}
			if (cf_mpi_check_nodes(argv[0], CF_GRAPH_NODES)) {
			    cf_mpi_finalize();
			    return 2;
			}
			void *(*node_cores[CF_GRAPH_CORES])(void *);
			int node_core_count = 0;
			for (int i = 0; i < CF_GRAPH_CORES; i++)
			    if (core_node[i] == cf_mpi_rank) node_cores[node_core_count++] = cores[i];
		«ELSE»
			if (parsed) return parsed == 1 ? 0 : 2;
		«ENDIF»
		cf_iterations = options.iterations;
		cf_validate = options.validate;
		«IF project.multiNode»
			/* a crash names the actor, firing, iteration and core; mpirun handles SIGINT and SIGTERM */
			cf_gen_install_signals(«string(project.identifier)», 0);
		«ELSE»
			/* a crash names the actor, firing, iteration and core; SIGINT and SIGTERM stop after an iteration */
			cf_gen_install_signals(«string(project.identifier)», 1);
		«ENDIF»
	'''

	/** The heap, channels, copy-on-write buffers, semaphores, barriers and digests, before the cores start. */
	def private runtimeObjects() '''
		«memoryCheck»
		/* address space for every buffer; each core allocates (and first touches) the buffers it reads */
		cf_gen_check(cf_heap_create(&cf_buffer_heap, «bytes(project.heapBytes)», 0), "cf_heap_create (reserving «project.heapBytes» bytes of address space for the buffers)");
		«objects»
		«IF project.barrier»
			cf_gen_check(-pthread_barrier_init(&cf_iteration_barrier, NULL, «coreCount»), "pthread_barrier_init");
		«ENDIF»
		cf_gen_check(-pthread_barrier_init(&cf_start_barrier, NULL, «coreCount»), "pthread_barrier_init");
		«IF !project.sinks.empty»
			for (int i = 0; i < CF_GRAPH_SINK_PARTS; i++) cf_md5_init(&cf_sink_parts[i]);
		«ENDIF»
	'''

	/** The channels (primed with their initial tokens), copy-on-write buffers and semaphores made. */
	def protected objects() '''
		«FOR channel : project.channels»
			«createChannel(channel.name, channel)»
		«ENDFOR»
		«FOR channel : project.channels.filter[primed]»
			«primeChannel(channel.name, channel)»
		«ENDFOR»
		«objectsBesideChannels»
	'''

	/** A channel made with slots of its own, in the variable {@code name}. */
	def protected createChannel(String name, Channel channel) '''
		{
		    cf_channel_options o = {.slots = «channel.slots», .max_message = «bytes(channel.bytes)»};
		    cf_gen_check(cf_channel_create(&«name», &o), "cf_channel_create(«name»)");
		}
	'''

	/** A persistent delay's channel given its initial tokens (one message of zeros). */
	def protected primeChannel(String name, Channel channel) '''
		cf_gen_prime(«name», «bytes(channel.bytes)», "initial tokens of «name»");
	'''

	/** The copy-on-write buffers and semaphores made. */
	def protected objectsBesideChannels() '''
		«cowObjects(null)»
		«semaphoreObjects»
	'''

	/**
	 * The copy-on-write buffers made: each with a memory file of its own, or, given {@code file} (a
	 * {@code cf_cow_file *}), at the offset {@code cf_variant_cow_offset} of that shared file, which each buffer
	 * advances past its whole pages (cf_cow_file_span).
	 */
	def cowObjects(String file) '''
		«FOR cow : project.cowBuffers»
			for (int s = 0; s < «cow.slots»; s++) {
			    /* each view maps the whole pages of the bytes its consumer reads: {first byte, bytes} */
			    static const size_t ranges[«cow.views»][2] = {«FOR r : cow.ranges SEPARATOR ', '»{«bytes(r.offset)», «bytes(r.bytes)»}«ENDFOR»};
			    «IF cow.writers == 1 && file === null»
			    cf_gen_check(cf_cow_create(&«cow.name»[s], «bytes(cow.bytes)», NULL), "cf_cow_create(«cow.name»)");
			    «ELSE»
			    «IF cow.writers > 1»
			    /* written in place on «cow.writers» cores, each publishing its part */
			    «ENDIF»
			    const cf_cow_config config = {.mode = CF_COW_EAGER«IF cow.writers > 1», .writers = «cow.writers»«ENDIF»«IF file !== null», .file = «file», .file_offset = cf_variant_cow_offset«ENDIF»};
			    cf_gen_check(cf_cow_create(&«cow.name»[s], «bytes(cow.bytes)», &config), "cf_cow_create(«cow.name»)");
			    «IF file !== null»
			    cf_variant_cow_offset += cf_cow_file_span(«bytes(cow.bytes)»);
			    «ENDIF»
			    «ENDIF»
			    for (int i = 0; i < «cow.views»; i++)
			        cf_gen_check(cf_cow_view_open_range(«cow.name»[s], ranges[i][0], ranges[i][1], &«cow.name»_views[s][i]), "cf_cow_view_open_range(«cow.name»)");
			}
		«ENDFOR»
	'''

	/** The semaphores made. */
	def protected semaphoreObjects() '''
		«IF project.semaphores > 0 && project.semaphoresStartAtZero»
			for (int i = 0; i < «project.semaphores»; i++)
			    if (sem_init(&cf_semaphores[i], 0, 0) != 0) cf_gen_check(-errno, "sem_init");
		«ELSEIF project.semaphores > 0»
			{
			    /* slot-reuse semaphores start at k: a core may run k iterations ahead of another */
			    static const unsigned starts[«project.semaphores»] = {«FOR start : project.semaphoreStarts SEPARATOR ', '»«start»«ENDFOR»};
			    for (int i = 0; i < «project.semaphores»; i++)
			        if (sem_init(&cf_semaphores[i], 0, starts[i]) != 0) cf_gen_check(-errno, "sem_init");
			}
		«ENDIF»
	'''

	/** The program refuses to start, before allocating anything, when its buffers cannot fit the machine. */
	def protected memoryCheck() '''
		{
		    /* what plan reports as the program's memory: «MemoryText.size(programMemory.totalBytes).comment» */
		    static const char *const largest[] = {«FOR buffer : programMemory.largest»«string(MemoryText.buffer(buffer).comment)», «ENDFOR»NULL};
		    cf_gen_check_memory(«string(project.identifier)», «bytes(programMemory.totalBytes)», «bytes(project.heapBytes)», largest);
		}
	'''

	/** The memory the program checks it has room for: the project's. */
	def protected ProgramMemory programMemory() {
		project.memory
	}

	/** Everything made before the run, destroyed. */
	def private tearDown() '''
		pthread_barrier_destroy(&cf_start_barrier);
		«IF project.barrier»
			pthread_barrier_destroy(&cf_iteration_barrier);
		«ENDIF»
		«destroyObjects»
		cf_gen_check(cf_heap_destroy(cf_buffer_heap), "cf_heap_destroy");
		«IF project.multiNode»
			cf_mpi_finalize();
			return 0;
		«ELSE»
			return cf_gen_finish(cf_gen_iterations_run(cf_iterations)); /* stopped by SIGINT or SIGTERM: ends with it */
		«ENDIF»
	'''

	/** The semaphores, copy-on-write buffers and channels destroyed. */
	def protected destroyObjects() '''
		«IF project.semaphores > 0»
			for (int i = 0; i < «project.semaphores»; i++) sem_destroy(&cf_semaphores[i]);
		«ENDIF»
		«FOR cow : project.cowBuffers»
			for (int s = 0; s < «cow.slots»; s++) {
			    for (int i = 0; i < «cow.views»; i++) cf_gen_check(cf_cow_view_close(«cow.name»_views[s][i]), "cf_cow_view_close(«cow.name»)");
			    cf_gen_check(cf_cow_destroy(«cow.name»[s]), "cf_cow_destroy(«cow.name»)");
			}
		«ENDFOR»
		«FOR channel : project.channels»
			cf_channel_destroy(«channel.name»);
		«ENDFOR»
	'''

	/** The cores this process runs: all of them, or on several nodes those of its node. */
	def coreCount() {
		if (project.multiNode) "node_core_count" else "CF_GRAPH_CORES"
	}
}
