package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.CodeProject
import org.cacheflow.codegen.model.SyntheticActor
import org.cacheflow.codegen.model.SyntheticActor.Use

/** {@code synthetic_actors.c}: deterministic actor bodies computed from the ports (--synthetic-actors). */
class SyntheticActorsPrinter extends CTemplate {

	val HeaderPrinter header

	new(CodeProject project) {
		super(project)
		header = new HeaderPrinter(project)
	}

	override print() '''
		«provenance»
		/* Each body reads every input its port lets it read into a seed (with the actor, iteration, firing and
		 * configuration values), overwrites the inputs it is allowed to modify, then fills its outputs from the
		 * seed. A strategy that lets a buffer be shared where it must not changes the sinks' digests. */
		#include "graph.h"
		«FOR actor : project.declarations»

			/* «actor.actor.comment» */
			«header.declaration(actor)» {
			    uint64_t cf_seed = cf_synth_seed(«actor.id»u, cf_iteration, cf_firing);
			    «FOR p : actor.parameters.filter[use != Use.WRITE && use != Use.SCRIBBLE]»
			    	«body(p)»
			    «ENDFOR»
			    «FOR c : actor.copies»
			    	memmove(«at(c.output, c.outputOffset)», «at(c.input, c.inputOffset)», «bytes(c.bytes)»); /* memory script */
			    «ENDFOR»
			    «FOR p : actor.parameters.filter[use == Use.READ_SCRIBBLE || use == Use.SCRIBBLE]»
			    	cf_synth_scribble(«p.name», «bytes(p.bytes)», cf_seed);
			    «ENDFOR»
			    «FOR f : actor.fills»
			    	cf_synth_fill(«at(f.output, f.offset)», «bytes(f.bytes)», cf_seed, «f.index»u);
			    «ENDFOR»
			    (void)cf_seed;
			}
		«ENDFOR»
	'''

	def at(String pointer, long offset) {
		if (offset == 0) pointer else '''(uint8_t *)«pointer» + «bytes(offset)»'''
	}

	def body(SyntheticActor.Parameter p) {
		switch (p.use) {
			case CONFIG: '''cf_seed = cf_synth_mix(cf_seed, (uint64_t)«p.name»);'''
			case READ, case READ_SCRIBBLE: '''cf_seed = cf_synth_absorb(cf_seed, «p.name», «bytes(p.bytes)»);'''
			case IGNORE: '''(void)«p.name»;'''
			default: throw new IllegalArgumentException(p.use.toString)
		}
	}
}
