package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.Argument
import org.cacheflow.codegen.model.CodeProject
import org.cacheflow.codegen.model.Core
import org.cacheflow.codegen.model.Statement.ActorCall

/**
 * {@code core_N.c} of a program generated for profiling ({@code cacheflow profile}): as a static core file, with every
 * actor's firing between {@code cf_profile_begin} and {@code cf_profile_end} (runtime-c's {@code cacheflow/profile.h}),
 * given the call's data ports: where each one's tokens are, how many bytes, input or output. One call site's
 * statistics per statement.
 */
class ProfiledCorePrinter extends CorePrinter {

	new(CodeProject project, Core core) {
		super(project, core)
	}

	override print() {
		super.print().toString().replaceFirst('#include "graph.h"\n', '#include "graph.h"\n#include <cacheflow/profile.h>\n')
	}

	override protected actorCall(ActorCall call) {
		val ports = call.arguments.filter(Argument.Data).filter[buffer !== null].toList
		'''
			{
			    static cf_profile_site *cf_site;
			    «IF ports.empty»
			    	cf_profile_port *cf_ports = NULL;
			    «ELSE»
			    	cf_profile_port cf_ports[] = {«FOR p : ports SEPARATOR ', '»{«string(p.name)», «ref(p.buffer)», «bytes(p.bytes)», «IF p.input»1«ELSE»0«ENDIF»}«ENDFOR»};
			    «ENDIF»
			    cf_profile_begin(&cf_site, «coreNumber», «string(call.vertex)», «string(call.function)», «IF initPart»1«ELSE»0«ENDIF», cf_ports, «ports.size»);
			    «super.actorCall(call)»
			    cf_profile_end(cf_site, cf_ports, «ports.size»);
			}
		'''
	}
}
