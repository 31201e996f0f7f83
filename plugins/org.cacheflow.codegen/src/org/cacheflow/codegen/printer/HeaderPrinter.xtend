package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.CodeProject
import org.cacheflow.codegen.model.SyntheticActor

/** {@code graph.h}: buffers, channels and other runtime objects, actor declarations, core entry points. */
class HeaderPrinter extends CTemplate {

	new(CodeProject project) {
		super(project)
	}

	override print() '''
		«provenance»
		#ifndef CACHEFLOW_GRAPH_H
		#define CACHEFLOW_GRAPH_H
		«includes»

		«constants»

		«runtimeObjects»

		«FOR core : project.cores»
			void *core«core.index»_run(void *argument);
		«ENDFOR»

		#endif
	'''

	/** The runtime's headers, and the actors' declarations: synthetic bodies or the refinement headers. */
	def private includes() '''
		#include <pthread.h>
		#include <semaphore.h>
		#include <stddef.h>
		#include <stdint.h>
		#include <string.h>
		#include <cacheflow/cacheflow.h>
		#include <cacheflow/support.h>
		«IF project.multiNode»
			#include "cacheflow_mpi.h"
		«ENDIF»
		«IF project.synthetic»

			/* Synthetic actor bodies (synthetic_actors.c), one per actor: iteration, firing, then the loop prototype's
			 * parameters (configuration values as long, buffers as bytes). */
			«FOR actor : project.declarations»
				«declaration(actor)»;
			«ENDFOR»
		«ELSE»

			/* Actor prototypes: the refinement headers named in the graph. */
			«FOR header : project.headers»
				#include «string(header)»
			«ENDFOR»
		«ENDIF»
	'''

	/** The cores, sink parts and, on several nodes, nodes and MPI tags. */
	def private constants() '''
		#define CF_GRAPH_CORES «project.cores.size»
		#define CF_GRAPH_SINK_PARTS «project.sinks.map[parts].fold(0)[a, b | a + b]»
		«IF project.multiNode»
			/* one process per node (MPI rank): run with mpirun -np «project.nodes» */
			#define CF_GRAPH_NODES «project.nodes»
			/* the largest MPI tag used: one per inter-node transfer */
			#define CF_GRAPH_MAX_TAG «project.transfers.map[tag].fold(0)[a, b | Math.max(a, b)]»
		«ENDIF»
	'''

	/** The globals of main.c: run options, digests, barriers, semaphores, buffers, channels, copy-on-write buffers. */
	def private runtimeObjects() '''
		extern long cf_iterations;
		extern int cf_validate;
		«IF !project.sinks.empty»
			extern cf_md5 cf_sink_parts[CF_GRAPH_SINK_PARTS];
		«ENDIF»
		«IF project.barrier»
			extern pthread_barrier_t cf_iteration_barrier;
		«ENDIF»
		extern pthread_barrier_t cf_start_barrier;
		extern cf_heap *cf_buffer_heap;
		«objectDeclarations»
	'''

	/** The program's objects: semaphores, buffers, transfers, channels, copy-on-write buffers. */
	def protected objectDeclarations() '''
		«IF project.semaphores > 0»
			extern sem_t cf_semaphores[«project.semaphores»];
		«ENDIF»

		«FOR buffer : project.buffers»
			extern uint8_t *«buffer.name»; /* «IF buffer.copies > 1»«buffer.copies» x «ENDIF»«buffer.bytes» bytes, core «buffer.home»«IF !buffer.allocated», in «buffer.pool» at «buffer.offset»«ENDIF»: «buffer.description.comment» */
		«ENDFOR»
		«FOR transfer : project.transfers»
			/* transfer core «transfer.sender» (node «transfer.senderNode») -> core «transfer.receiver» (node «transfer.receiverNode»), tag «transfer.tag», «transfer.slots» slots: «transfer.description.comment» */
		«ENDFOR»
		«FOR channel : project.channels»
			extern cf_channel *«channel.name»; /* core «channel.sender» -> core «channel.receiver»: «channel.description.comment» */
		«ENDFOR»
		«FOR cow : project.cowBuffers»
			extern cf_cow_buffer *«cow.name»[«cow.slots»]; /* «cow.description.comment»; iteration i uses slot i % «cow.slots» */
			extern cf_cow_view *«cow.name»_views[«cow.slots»][«cow.views»];
		«ENDFOR»
	'''

	def declaration(SyntheticActor actor) '''void «actor.function»(long cf_iteration, long cf_firing«FOR p : actor.parameters», «IF p.use == SyntheticActor.Use.CONFIG»long «ELSE»void *«ENDIF»«p.name»«ENDFOR»)'''
}
