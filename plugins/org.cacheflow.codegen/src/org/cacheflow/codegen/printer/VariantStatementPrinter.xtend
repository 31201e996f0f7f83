package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.BufferRef
import org.cacheflow.codegen.model.CodeProject
import org.cacheflow.codegen.model.Core
import org.cacheflow.codegen.model.Statement.FirstIteration

/**
 * A variant's statements for one core in a program holding several variants
 * ({@link org.cacheflow.codegen.model.VariantProgram}): as the variant alone prints them, with {@code iteration} the
 * iterations that variant has run (its flags, channels and semaphores count them), except what a persistent delay's
 * state carries from one iteration to the next whichever variant runs it: the copy read or written, and the init
 * refinement of the first iteration, follow the program's iteration ({@link #PROGRAM_ITERATION}).
 */
class VariantStatementPrinter extends CorePrinter {

	/** The C variable holding the program's iteration where a variant's statements run. */
	public static val PROGRAM_ITERATION = "cf_program_iteration"

	new(CodeProject variant, Core core) {
		super(variant, core)
	}

	override base(BufferRef.Base base) {
		switch (base) {
			BufferRef.DelayCopy: '''(«base.name» + «IF base.next»((«PROGRAM_ITERATION» + 1) & 1)«ELSE»(«PROGRAM_ITERATION» & 1)«ENDIF» * «base.bytes»u)'''
			default: super.base(base)
		}
	}

	override dispatch statement(FirstIteration first) '''
		if («PROGRAM_ITERATION» == 0) {
		    «statement(first.statement)»
		}
	'''
}
