package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.CodeProject
import org.cacheflow.codegen.model.Core
import org.cacheflow.codegen.model.SchedTable

/**
 * {@code core_0.c} of a dynamic or hybrid schedule: one function per firing of the table (its statements, as a
 * static core file prints them, with the worker's core in crash reports), the table for the runtime's dispatcher
 * ({@code cf_sched}), and core 0's function: start-up as for one core, then {@code cf_sched_run} over the
 * iterations in place of the static loop.
 */
class SchedCorePrinter extends CorePrinter {

	val SchedTable table

	/** Whether the statements printed are a firing's (its worker's core in crash reports) rather than core 0's. */
	var boolean inFiring

	new(CodeProject project, Core core, SchedTable table) {
		super(project, core)
		this.table = table
	}

	override coreNumber() {
		if (inFiring) "(int)ctx->worker" else "0"
	}

	override print() '''
		«provenance»
		#include <limits.h>
		#include <stdatomic.h>
		#include "graph.h"

		int cf_gen_sched_pin; /* main: --no-pin unsets it */
		int cf_gen_sched_time; /* main: --time */
		/* after a stop (preesmStopThreads, SIGINT, SIGTERM): the first iteration that does not run */
		static _Atomic long cf_stop_at = LONG_MAX;
		/* the dispatcher, told of a stop so that it skips the iterations it has not admitted yet */
		static cf_sched *cf_running_sched;

		«FOR i : 0 ..< table.firings.size»
			«firing(i)»
		«ENDFOR»
		«FOR i : 0 ..< table.firings.size»
			«val f = table.firings.get(i)»
			«IF !f.successors.empty || !f.later.empty»
				static const cf_sched_edge cf_successors_«i»[] = {«FOR s : f.successors SEPARATOR ', '»{«s», 0}«ENDFOR»«IF !f.successors.empty && !f.later.empty», «ENDIF»«FOR s : f.later SEPARATOR ', '»{«s», 1}«ENDFOR»};
			«ENDIF»
		«ENDFOR»
		/* the firing table: «table.firings.size» firings for «table.firings.map[statements.size].reduce[x, y | x + y]» steps of the one-core iteration */
		static const cf_sched_firing cf_firings[] = {
		    /* fn, arg, successors ({firing, 0}: this iteration, {firing, 1}: the next), n, predecessors, priority
		     * (bottom level), flags */
		    «FOR i : 0 ..< table.firings.size»
		    	«val f = table.firings.get(i)»
		    	«val edges = f.successors.size + f.later.size»
		    	{cf_firing_«i», NULL, «IF edges == 0»NULL«ELSE»cf_successors_«i»«ENDIF», «edges», «f.predecessors», «f.priority», «IF f.variable»CF_SCHED_VARIABLE«ELSE»0«ENDIF»},
		    «ENDFOR»
		};
		«IF table.hybrid»
			«FOR c : 0 ..< table.threads»
				static const uint32_t cf_order_«c»[] = {«FOR i : table.orders.get(c) SEPARATOR ', '»«i»«ENDFOR»«IF table.orders.get(c).empty»0«ENDIF»};
			«ENDFOR»
			static const uint32_t *const cf_orders[] = {«FOR c : 0 ..< table.threads SEPARATOR ', '»cf_order_«c»«ENDFOR»};
			static const uint32_t cf_order_len[] = {«FOR c : 0 ..< table.threads SEPARATOR ', '»«table.orders.get(c).size»«ENDFOR»};
		«ENDIF»

		void *core0_run(void *argument) {
		    (void)argument;
		    «startUp»
		    /* «IF table.hybrid»hybrid: steady firings in a static order per worker, variable ones from the pool«ELSE»dynamic: every firing to whichever worker is free«ENDIF»;
		     * «IF table.slots == 1»one iteration at a time«ELSE»up to «table.slots» iterations in flight (iteration i in buffer copy i % «table.slots»)«ENDIF» */
		    cf_sched_graph graph = {cf_firings, «table.firings.size», «IF table.hybrid»«table.threads», cf_orders, cf_order_len«ELSE»0, NULL, NULL«ENDIF»};
		    cf_sched *sched = NULL;
		    cf_gen_check(cf_sched_create(&sched, &graph), "cf_sched_create");
		    cf_running_sched = sched;
		    cf_sched_run_config run = {.iterations = cf_iterations, .slots = «table.slots», .threads = «table.threads»,
		                               .mode = «IF table.hybrid»CF_SCHED_HYBRID«ELSE»CF_SCHED_DYNAMIC«ENDIF», .order = CF_SCHED_HRC,
		                               .flags = (cf_gen_sched_time ? CF_SCHED_TIME : 0u) | (cf_gen_sched_pin ? 0u : CF_SCHED_NO_PIN)};
		    cf_gen_check(cf_sched_run(sched, &run), "cf_sched_run");
		    if (cf_gen_sched_time) cf_sched_print_times(sched, stdout); /* --time: per core working, dispatching, idle */
		    cf_sched_destroy(sched);
		    «finish»
		}
	'''

	/** A firing's function: nothing once a stop is agreed; the first firing of an iteration checks for one. */
	def private firing(int i) {
		inFiring = true
		val text = firingFunction(i)
		inFiring = false
		text
	}

	def private firingFunction(int i) '''
		/* «table.firings.get(i).label.comment» */
		static void cf_firing_«i»(void *argument, const cf_sched_ctx *ctx) {
		    (void)argument;
		    const long iteration = (long)ctx->iteration;
		    «IF i == 0»
		    	/* every firing of the iteration follows this one, and this one follows the previous iteration's */
		    	if (iteration > 0) cf_gen_check_stop();
		    	if (!cf_gen_keep_running(0, iteration)) {
		    	    atomic_store(&cf_stop_at, iteration);
		    	    cf_sched_end(cf_running_sched, iteration);
		    	}
		    «ENDIF»
		    if (iteration >= atomic_load_explicit(&cf_stop_at, memory_order_relaxed)) return;
		    cf_gen_core_is((int)ctx->worker); /* for crash reports */
		    «FOR statement : table.firings.get(i).statements»
		    	«statement(statement)»
		    «ENDFOR»
		}
	'''
}
