package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.CodeProject

/**
 * {@code cacheflow_mpi.h} (programs for several nodes only): one process per node (MPI rank), inter-node
 * transfers as persistent point-to-point requests, and --validate's gathering of digests and statistics on rank 0.
 */
class MpiHeaderPrinter extends CTemplate {

	new(CodeProject project) {
		super(project)
	}

	override print() '''
		«provenance»
		/* MPI for a program generated for several nodes: one process per node (MPI rank). Every process has the same
		 * buffers (memory a node does not touch is never committed) but runs only the cores of its node; data crossing
		 * nodes moves through persistent point-to-point requests, k slots in flight. */
		#ifndef CACHEFLOW_MPI_H
		#define CACHEFLOW_MPI_H
		#include <mpi.h>
		#include <stddef.h>
		#include <stdint.h>
		#include <cacheflow/support.h>

		/* This process's node. */
		extern int cf_mpi_rank;

		/* MPI_Init_thread with MPI_THREAD_MULTIPLE (each core thread starts and completes its own transfers), stopping
		 * with a message when the library provides less or tags up to max_tag exceed MPI_TAG_UB. */
		void cf_mpi_init(int *argc, char ***argv, const char *program, int max_tag);
		/* 0 when the job has one process per node, else 2 after a message on rank 0 (the caller finalizes and exits). */
		int cf_mpi_check_nodes(const char *program, int nodes);
		void cf_mpi_finalize(void);
		/* Whether to pin the node's core threads (cf_gen_run_cores): as asked when this process is alone on its machine;
		 * when several processes share it (mpirun on one machine), each keeps to its own CPUs instead (the next `cores`
		 * after those of the processes before it there), its threads unpinned within them, and 0 is returned.
		 * Collective: every process calls it. */
		int cf_mpi_pin(int cores, int pin);
		/* After the node's cores are done: an actor that set preesmStopThreads stopped this node only (the cores of a node
		 * agree on the last iteration, the nodes cannot), so the job is stopped with a message instead of waiting for
		 * messages that will never come. */
		void cf_mpi_check_stop(const char *program, long iterations);
		/* Stops the whole job with a message naming the call when rc is not MPI_SUCCESS. */
		void cf_mpi_check(int rc, const char *what);

		/* Persistent requests for `slots` messages of `bytes` bytes at base, base + bytes, ... A receive posts its first
		 * min(slots, iterations) requests at once (iteration i arrives in slot i % slots). */
		void cf_mpi_send_init(MPI_Request *requests, int slots, uint8_t *base, size_t bytes, int peer, int tag,
		                      const char *what);
		void cf_mpi_recv_init(MPI_Request *requests, int slots, uint8_t *base, size_t bytes, int peer, int tag,
		                      long iterations, const char *what);
		/* Waits for a request (at once for one not started). */
		void cf_mpi_wait(MPI_Request *request, const char *what);
		void cf_mpi_start(MPI_Request *request, const char *what);
		/* Completes every request (cancelling receives never matched) and frees them. */
		void cf_mpi_free(MPI_Request *requests, int slots, int receive, const char *what);

		/* --validate, on every rank: rank 0 gets each sink part from the node that digested it (node_of_part), adds the
		 * other ranks' runtime statistics to its own, and the wall time of the slowest rank is returned. */
		void cf_mpi_gather_digests(cf_md5 *parts, int count, const int *node_of_part);
		void cf_mpi_gather_stats(void);
		double cf_mpi_max_seconds(double seconds);

		#endif
	'''
}
