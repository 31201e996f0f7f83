package org.cacheflow.codegen.printer

import java.util.List
import org.cacheflow.codegen.model.Argument
import org.cacheflow.codegen.model.CodeProject
import org.cacheflow.codegen.model.CopyKind
import org.cacheflow.codegen.model.Core
import org.cacheflow.codegen.model.Flag
import org.cacheflow.codegen.model.Statement
import org.cacheflow.codegen.model.Statement.ActorCall
import org.cacheflow.codegen.model.Statement.ChannelAcquire
import org.cacheflow.codegen.model.Statement.ChannelCommit
import org.cacheflow.codegen.model.Statement.ChannelRelease
import org.cacheflow.codegen.model.Statement.ChannelReserve
import org.cacheflow.codegen.model.Statement.Copy
import org.cacheflow.codegen.model.CowBuffer
import org.cacheflow.codegen.model.Statement.CowAcquire
import org.cacheflow.codegen.model.Statement.CowPublish
import org.cacheflow.codegen.model.Statement.CowRelease
import org.cacheflow.codegen.model.Statement.CowWriteBegin
import org.cacheflow.codegen.model.Statement.Digest
import org.cacheflow.codegen.model.Statement.Fence
import org.cacheflow.codegen.model.Statement.Pipelined
import org.cacheflow.codegen.model.Statement.Prestore
import org.cacheflow.codegen.model.Statement.SemaphorePost
import org.cacheflow.codegen.model.Statement.SemaphoreWait
import org.cacheflow.codegen.model.Statement.FirstIteration
import org.cacheflow.codegen.model.Statement.FlagRaise
import org.cacheflow.codegen.model.Statement.FlagWait
import org.cacheflow.codegen.model.Statement.TransferReceivePost
import org.cacheflow.codegen.model.Statement.TransferReceiveWait
import org.cacheflow.codegen.model.Statement.TransferSend
import org.cacheflow.codegen.model.Statement.TransferSendWait
import org.cacheflow.codegen.model.Statement.Zero
import org.cacheflow.codegen.model.Transfer
import org.cacheflow.plan.strategy.PrestoreKind

/**
 * {@code core_N.c}: one core's program. Start-up (home its incoming channels, init prototypes, wait for every
 * core), then its static schedule once per graph iteration.
 */
class CorePrinter extends CTemplate {

	val Core core

	/** Whether the statements printed are the init part's (before the first iteration). */
	protected var boolean initPart

	new(CodeProject project, Core core) {
		super(project)
		this.core = core
	}

	override print() '''
		«provenance»
		#include "graph.h"
		«IF setsParameters(core.init) || setsParameters(core.loop)»
			#include <cacheflow/dynparam.h>
		«ENDIF»
		«definitions»

		void *core«core.index»_run(void *argument) {
		    (void)argument;
		    «startUp»
		    «loopHeader»
		        «IF !stops && core.index == 0»
		        	cf_gen_iteration_begins(0, «IF project.maxSkew > 0»pass«ELSE»iteration«ENDIF»); /* --time */
		        «ENDIF»
		        «IF project.maxSkew > 0 && stops && guards(core)»
		        	/* graph iterations below this are live; a stop agreed during the pass leaves them so (it makes the last
		        	 * pass begun, at least this one, the last iteration) */
		        	const long live_end = cf_gen_iteration_end(cf_iterations);
		        «ENDIF»
		        «body»
		        «IF stops»
		        	cf_gen_check_stop();
		        «ENDIF»
		        «IF project.barrier»
		        	cf_gen_barrier_wait(&cf_iteration_barrier);
		        «ENDIF»
		    }
		    «finish»
		}
	'''

	/** The file's definitions before the core's function: the flags homed here, the MPI requests. */
	def protected definitions() '''
		«FOR flag : project.flags.filter[to == core.index || from == core.index]»
			«IF flag.to == core.index»
				/* rdy-ack flag: core «flag.from»'s events for this core, homed here (cf_flag_init below) */
				cf_flag «variable(flag)» = CF_FLAG_INIT;
			«ELSE»
				extern cf_flag «variable(flag)»; /* this core's events for core «flag.to» */
			«ENDIF»
		«ENDFOR»
		«FOR transfer : sends»
			/* sends of «transfer.name» to core «transfer.receiver» on node «transfer.receiverNode», one persistent request per slot */
			static MPI_Request «sendRequests(transfer)»[«transfer.slots»];
		«ENDFOR»
		«FOR transfer : receives»
			/* receives of «transfer.name» from core «transfer.sender» on node «transfer.senderNode», one persistent request per slot */
			static MPI_Request «receiveRequests(transfer)»[«transfer.slots»];
		«ENDFOR»
	'''

	/** One iteration's statements (one pass's when pipelined). */
	def protected body() '''
		«FOR statement : core.loop»
			«statement(statement)»
		«ENDFOR»
	'''

	/** Before the loop: pointers, buffers, homed channels, MPI requests, flags, init calls, the start barrier. */
	def protected startUp() '''
		«FOR pointer : core.pointers»
			uint8_t *«pointer» = NULL;
		«ENDFOR»
		cf_gen_core_is(«core.index»); /* for crash reports */
		cf_heap_local *heap = NULL;
		cf_gen_check(cf_heap_attach(cf_buffer_heap, &heap), "cf_heap_attach (core «core.index»)");
		«allocations»
		«FOR statement : core.init»
			«initStatement(statement)»
		«ENDFOR»
		/* every core has homed its channels before anyone sends */
		cf_gen_barrier_wait(&cf_start_barrier);
	'''

	/** The core's buffers allocated (or placed in their pools), its channels homed, MPI requests made, flags set up. */
	def protected allocations() '''
		«FOR buffer : core.buffers.filter[allocated]»
			«buffer.name» = cf_gen_alloc(heap, «bytes(buffer.totalBytes)», "«buffer.name»");
		«ENDFOR»
		«FOR buffer : core.buffers.filter[!allocated]»
			«buffer.name» = «buffer.pool» + «bytes(buffer.offset)»;
		«ENDFOR»
		«FOR channel : core.homes»
			cf_gen_check(cf_channel_home_here(«channel.name»), "cf_channel_home_here(«channel.name»)");
		«ENDFOR»
		«FOR t : sends»
			cf_mpi_send_init(«sendRequests(t)», «t.slots», «t.sendBuffer», «bytes(t.bytes)», «t.receiverNode», «t.tag», "MPI_Send_init(«t.name»)");
		«ENDFOR»
		«FOR t : receives»
			cf_mpi_recv_init(«receiveRequests(t)», «t.slots», «t.receiveBuffer», «bytes(t.bytes)», «t.senderNode», «t.tag», cf_iterations, "MPI_Recv_init(«t.name»)");
		«ENDFOR»
		«flagInits»
	'''

	/** The flags homed on this core, set up. */
	def protected flagInits() '''
		«FOR flag : project.flags.filter[to == core.index]»
			cf_gen_check(cf_flag_init(&«variable(flag)», 0, 0), "cf_flag_init(«variable(flag)»)");
		«ENDFOR»
	'''

	/**
	 * Whether the loop can stop before its iterations are done: when an actor sets preesmStopThreads or at SIGINT or
	 * SIGTERM; not synthetic actors on several nodes (they never stop; mpirun handles the signals).
	 */
	def private stops() {
		!project.synthetic || !project.multiNode
	}

	/** An init-time statement: actors fired there run before the first iteration (-1 in crash reports). */
	def protected initStatement(Statement statement) {
		initPart = true
		val text = statement(statement)
		initPart = false
		text
	}

	/** The loop over iterations (over passes when pipelined), stopping when an actor or a signal asks. */
	def private loopHeader() '''
		«IF project.maxSkew > 0»
			/* pipelined: in pass p a vertex with iteration offset r fires for graph iteration p - r */
			«IF !stops»
				for (long pass = 0; pass < cf_iterations + «project.maxSkew»; pass++) {
			«ELSE»
				/* as PREESM's generated code: an actor setting preesmStopThreads (or SIGINT, SIGTERM) ends the run after an
				 * iteration every core completes; the passes after it complete the iterations begun */
				for (long pass = 0; pass < cf_iterations + «project.maxSkew» && cf_gen_keep_running_pipelined(«core.index», pass, «project.maxSkew»); pass++) {
			«ENDIF»
		«ELSEIF !stops»
			for (long iteration = 0; iteration < cf_iterations; iteration++) {
		«ELSE»
			/* as PREESM's generated code: an actor setting preesmStopThreads (or SIGINT, SIGTERM) ends the run after an
			 * iteration every core completes */
			for (long iteration = 0; iteration < cf_iterations && cf_gen_keep_running(«core.index», iteration); iteration++) {
		«ENDIF»
	'''

	/** After the loop: the last barrier, MPI requests freed, buffers freed. */
	def protected finish() '''
		«IF !project.barrier && project.cores.size > 1»
			/* other cores may still read buffers of ours that hold the last iterations */
			cf_gen_barrier_wait(&cf_start_barrier);
		«ENDIF»
		«frees»
		cf_gen_check(cf_heap_detach(heap), "cf_heap_detach (core «core.index»)");
		return NULL;
	'''

	/** MPI requests freed, the core's buffers freed. */
	def protected frees() '''
		«FOR t : sends»
			cf_mpi_free(«sendRequests(t)», «t.slots», 0, "sends of «t.name»");
		«ENDFOR»
		«FOR t : receives»
			cf_mpi_free(«receiveRequests(t)», «t.slots», 1, "receives of «t.name»");
		«ENDFOR»
		«FOR buffer : core.buffers.filter[allocated]»
			cf_gen_check(cf_heap_free(cf_buffer_heap, heap, «buffer.name»), "cf_heap_free(«buffer.name»)");
		«ENDFOR»
	'''

	def dispatch statement(ActorCall call) '''
		«IF call.arguments.exists[it instanceof Argument.ParamOut]»
			«configurationCall(call)»
		«ELSE»
			«actorCall(call)»
		«ENDIF»
	'''

	/** Whether statements call a configuration actor (one setting a dynamic parameter). */
	def boolean setsParameters(List<Statement> statements) {
		statements.exists[s|switch s {
			ActorCall: s.arguments.exists[it instanceof Argument.ParamOut]
			Pipelined: setsParameters(s.body)
			FirstIteration: setsParameters(#[s.statement])
			default: false
		}]
	}

	/**
	 * A configuration actor's call: the values it writes to its config outputs, checked against those the program was
	 * planned for (a message and exit otherwise, before any other actor sees them).
	 */
	def configurationCall(ActorCall call) '''
		{
		    «FOR a : call.arguments.filter(Argument.ParamOut)»
		    	«a.type» «paramVariable(a)» = 0;
		    «ENDFOR»
		    «actorCall(call)»
		    «FOR a : call.arguments.filter(Argument.ParamOut)»
		    	{
		    	    static const long long planned[] = {«FOR v : a.planned SEPARATOR ', '»«v»LL«ENDFOR»};
		    	    cf_gen_param_check(«string(a.actor)», «string(a.parameter)», (long long)«paramVariable(a)», «IF initPart»-1«ELSE»iteration«ENDIF», planned, «a.planned.size»);
		    	}
		    «ENDFOR»
		}
	'''

	def paramVariable(Argument.ParamOut argument) '''cf_param_«argument.name»'''

	/** An actor's firing, bracketed for crash reports (the profiled printer measures around it). */
	def protected actorCall(ActorCall call) '''
		/* «call.vertex.comment» («call.origin.comment») */
		cf_gen_firing_begins(«coreNumber», «string(call.vertex + " (" + call.origin + ")")», «IF initPart»-1«ELSE»iteration«ENDIF», «call.firing»);
		«IF project.synthetic»
			«call.function»(iteration, «call.firing»«FOR a : call.arguments», «syntheticArgument(a)»«ENDFOR»);
		«ELSE»
			«call.function»(«FOR a : call.arguments SEPARATOR ', '»«realArgument(a)»«ENDFOR»);
		«ENDIF»
		cf_gen_firing_ends(«coreNumber»);
	'''

	/** The core an actor call runs on, in crash reports: this core's number. */
	def protected coreNumber() '''«core.index»'''

	/** Whether a pipelined block of the core guards statements by the iteration being live. */
	def guards(Core core) {
		core.loop.filter(Pipelined).exists[runs.exists[!Pipelined.everyPass(head)]]
	}

	def dispatch statement(Pipelined block) '''
		{
		    const long iteration = pass - «block.skew»;
		    «FOR run : block.runs»
		    	«IF Pipelined.everyPass(run.head)»
		    		«FOR statement : run»
		    			«statement(statement)»
		    		«ENDFOR»
		    	«ELSE»
		    		if (iteration >= 0 && iteration < «IF stops»live_end«ELSE»cf_iterations«ENDIF») {
		    		    «FOR statement : run»
		    		    	«statement(statement)»
		    		    «ENDFOR»
		    		}
		    	«ENDIF»
		    «ENDFOR»
		}
	'''

	def syntheticArgument(Argument argument) {
		switch (argument) {
			Argument.Constant: '''«argument.value»L'''
			Argument.Data: ref(argument.buffer)
		}
	}

	def realArgument(Argument argument) {
		switch (argument) {
			Argument.Constant: '''«argument.value» /* «argument.name.comment» */'''
			Argument.Data: if (argument.buffer === null) "NULL" else '''(«argument.type» *)«ref(argument.buffer)»'''
			Argument.ParamOut: '''&«paramVariable(argument)»'''
		}
	}

	def dispatch statement(Copy copy) {
		switch (copy.kind) {
			case MEMCPY: '''cf_copy(«ref(copy.destination)», «ref(copy.source)», «bytes(copy.bytes)»); /* «copy.why.comment» */'''
			case NON_TEMPORAL: '''cf_ntm_copy(«ref(copy.destination)», «ref(copy.source)», «bytes(copy.bytes)»); /* «copy.why.comment» */'''
			case CopyKind.SKIP: '''(void)cf_prestore_write(«ref(copy.destination)», «ref(copy.source)», «bytes(copy.bytes)», CF_SKIP); /* «copy.why.comment» */'''
		}
	}

	def dispatch statement(FirstIteration first) '''
		if (iteration == 0) {
		    «statement(first.statement)»
		}
	'''

	def dispatch statement(Zero zero) '''memset(«ref(zero.destination)», 0, «bytes(zero.bytes)»); /* «zero.why.comment» */'''

	def dispatch statement(Prestore prestore) '''(void)cf_prestore(«ref(prestore.buffer)», «bytes(prestore.bytes)», «prestoreOps(prestore.kind)»);'''

	/** The runtime's operation for a pre-store after the last write (BYPASS: the data is evicted). */
	def prestoreOps(PrestoreKind kind) {
		switch (kind) {
			case DEMOTE: "CF_DEMOTE"
			case CLEAN: "CF_CLEAN"
			case BYPASS: "CF_EVICT"
			default: throw new IllegalArgumentException("no pre-store operation for " + kind)
		}
	}

	def dispatch statement(Fence fence) '''cf_prestore_fence();'''

	def dispatch statement(ChannelReserve s) '''«s.pointer» = cf_gen_reserve(«s.channel.name», "reserve «s.channel.name»");'''

	def dispatch statement(ChannelCommit s) '''cf_gen_commit(«s.channel.name», «bytes(s.channel.bytes)», "commit «s.channel.name»");'''

	def dispatch statement(ChannelAcquire s) '''«s.pointer» = cf_gen_acquire(«s.channel.name», "acquire «s.channel.name»");'''

	def dispatch statement(ChannelRelease s) '''cf_gen_release(«s.channel.name», "release «s.channel.name»");'''

	def dispatch statement(SemaphorePost s) '''cf_gen_sem_post(&cf_semaphores[«s.semaphore»]); /* «s.why.comment» */'''

	def dispatch statement(SemaphoreWait s) '''cf_gen_sem_wait(&cf_semaphores[«s.semaphore»]); /* «s.why.comment» */'''

	def dispatch statement(FlagRaise s) '''cf_flag_raise(&«variable(s.flag)», «count(s.perIteration, s.count)»); /* «s.why.comment» */'''

	def dispatch statement(FlagWait s) '''cf_flag_wait(&«variable(s.flag)», «count(s.perIteration, s.offset)»); /* «s.why.comment» */'''

	/** A rdy-ack flag's C variable, defined in the waiting core's file. */
	def variable(Flag flag) '''cf_flag_«flag.from»_to_«flag.to»'''

	/** {@code iteration * perIteration + offset} as a 64-bit C expression. */
	def count(long perIteration, long offset) {
		val product = '''(int64_t)iteration«IF perIteration != 1» * «perIteration»«ENDIF»'''
		if (offset == 0) product else if (offset > 0) '''«product» + «offset»''' else '''«product» - «-offset»'''
	}

	def dispatch statement(CowWriteBegin s) '''«IF s.buffer.writers == 1»«s.pointer» = cf_gen_cow_write_begin(«slot(s.buffer)», "cf_cow_write_begin(«s.buffer.name»)");«ELSE»«s.pointer» = cf_gen_cow_write_begin_part(«slot(s.buffer)», «s.part», "cf_cow_write_begin_part(«s.buffer.name», «s.part»)");«ENDIF»'''

	def dispatch statement(CowPublish s) '''«IF s.buffer.writers == 1»cf_gen_cow_publish(«slot(s.buffer)», "cf_cow_publish(«s.buffer.name»)");«ELSE»cf_gen_cow_publish_part(«slot(s.buffer)», «s.part», "cf_cow_publish_part(«s.buffer.name», «s.part»)");«ENDIF»'''

	def dispatch statement(CowAcquire s) '''«s.pointer» = cf_gen_cow_acquire(«s.buffer.name»_views[«slotIndex(s.buffer)»][«s.view»], "cf_cow_acquire(«s.buffer.name» view «s.view»)");'''

	def dispatch statement(CowRelease s) '''cf_gen_cow_release(«s.buffer.name»_views[«slotIndex(s.buffer)»][«s.view»], "cf_cow_release(«s.buffer.name» view «s.view»)");'''

	/** The copy-on-write buffer of this iteration's slot. */
	def slot(CowBuffer cow) '''«cow.name»[«slotIndex(cow)»]'''

	def slotIndex(CowBuffer cow) '''«IF cow.slots == 1»0«ELSE»iteration % «cow.slots»«ENDIF»'''

	/** The transfers this core sends. */
	def sends() {
		project.transfers.filter[sender == core.index]
	}

	/** The transfers this core receives. */
	def receives() {
		project.transfers.filter[receiver == core.index]
	}

	def sendRequests(Transfer transfer) '''cf_send_«transfer.name»'''

	def receiveRequests(Transfer transfer) '''cf_recv_«transfer.name»'''

	/** This iteration's request of a transfer's requests. */
	def slot(Transfer transfer, CharSequence requests) '''&«requests»[«IF transfer.slots == 1»0«ELSE»iteration % «transfer.slots»«ENDIF»]'''

	def dispatch statement(TransferSendWait s) '''cf_mpi_wait(«slot(s.transfer, sendRequests(s.transfer))», "MPI_Wait(send of «s.transfer.name»)"); /* the slot's last send is done: it may be written again */'''

	def dispatch statement(TransferSend s) '''cf_mpi_start(«slot(s.transfer, sendRequests(s.transfer))», "MPI_Start(send of «s.transfer.name»)"); /* to node «s.transfer.receiverNode» */'''

	def dispatch statement(TransferReceiveWait s) '''cf_mpi_wait(«slot(s.transfer, receiveRequests(s.transfer))», "MPI_Wait(receive of «s.transfer.name»)"); /* from node «s.transfer.senderNode» */'''

	def dispatch statement(TransferReceivePost s) '''if (iteration + «s.transfer.slots» < cf_iterations) cf_mpi_start(«slot(s.transfer, receiveRequests(s.transfer))», "MPI_Start(receive of «s.transfer.name»)"); /* the slot's next message */'''

	def dispatch statement(Digest s) '''if (cf_validate) cf_md5_update(&cf_sink_parts[«project.sinks.get(s.sink).firstPart + s.part»], «ref(s.buffer)», «bytes(s.bytes)»);'''

	def dispatch statement(Statement s) {
		throw new IllegalArgumentException("no printer for " + s)
	}
}
