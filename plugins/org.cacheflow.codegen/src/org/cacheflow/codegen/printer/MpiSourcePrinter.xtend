package org.cacheflow.codegen.printer

import org.cacheflow.codegen.model.CodeProject

/** {@code cacheflow_mpi.c}: the implementation of {@code cacheflow_mpi.h}. */
class MpiSourcePrinter extends CTemplate {

	new(CodeProject project) {
		super(project)
	}

	override print() '''
		«provenance»
		#define _GNU_SOURCE /* sched_setaffinity */
		#include "cacheflow_mpi.h"

		#include <limits.h>
		#include <sched.h>
		#include <stdio.h>
		#include <stdlib.h>
		#include <string.h>
		#include <unistd.h>

		«startUp»

		«runControl»

		«requests»

		«gathering»
	'''

	/** The rank, errors, MPI's start-up and the node count checked, MPI's end. */
	def private startUp() '''
		int cf_mpi_rank;

		void cf_mpi_check(int rc, const char *what) {
		    if (rc == MPI_SUCCESS) return;
		    char text[MPI_MAX_ERROR_STRING];
		    int length = 0;
		    if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) snprintf(text, sizeof text, "MPI error %d", rc);
		    fprintf(stderr, "error: node %d: %s failed: %s\n", cf_mpi_rank, what, text);
		    MPI_Abort(MPI_COMM_WORLD, 3);
		}

		void cf_mpi_init(int *argc, char ***argv, const char *program, int max_tag) {
		    int provided = MPI_THREAD_SINGLE;
		    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
		    if (rc != MPI_SUCCESS) {
		        fprintf(stderr, "error: %s: MPI_Init_thread failed (%d)\n", program, rc);
		        exit(3);
		    }
		    /* errors come back to cf_mpi_check, which names the call */
		    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		    cf_mpi_check(MPI_Comm_rank(MPI_COMM_WORLD, &cf_mpi_rank), "MPI_Comm_rank");
		    if (provided < MPI_THREAD_MULTIPLE) {
		        if (cf_mpi_rank == 0)
		            fprintf(stderr, "error: %s: the MPI library provides thread level %d, not MPI_THREAD_MULTIPLE (%d):"
		                            " every core thread sends and receives its own transfers\n", program, provided,
		                    MPI_THREAD_MULTIPLE);
		        MPI_Abort(MPI_COMM_WORLD, 3);
		    }
		    int *tag_ub = NULL, found = 0;
		    cf_mpi_check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found), "MPI_Comm_get_attr(MPI_TAG_UB)");
		    if (found && max_tag > *tag_ub) {
		        if (cf_mpi_rank == 0)
		            fprintf(stderr, "error: %s needs MPI tags up to %d (one per transfer), this MPI library allows %d\n",
		                    program, max_tag, *tag_ub);
		        MPI_Abort(MPI_COMM_WORLD, 3);
		    }
		}

		int cf_mpi_check_nodes(const char *program, int nodes) {
		    int size = 0;
		    cf_mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
		    if (size == nodes) return 0;
		    if (cf_mpi_rank == 0)
		        fprintf(stderr, "error: this program was generated for %d nodes: run it with mpirun -np %d %s (this job"
		                        " has %d process%s)\n", nodes, nodes, program, size, size == 1 ? "" : "es");
		    return 2;
		}

		void cf_mpi_finalize(void) { MPI_Finalize(); }
	'''

	/** A stop only one node would see, refused; the node's cores pinned to CPUs of its machine. */
	def private runControl() '''
		void cf_mpi_check_stop(const char *program, long iterations) {
		    long run = cf_gen_iterations_run(iterations);
		    if (run >= iterations) return;
		    fprintf(stderr, "error: node %d: an actor stopped the run (preesmStopThreads) after %ld of %ld iterations; %s"
		                    " was generated for several nodes, which cannot agree on a stop: give the iterations to run with"
		                    " --iterations\n", cf_mpi_rank, run, iterations, program);
		    MPI_Abort(MPI_COMM_WORLD, 3);
		}

		int cf_mpi_pin(int cores, int pin) {
		    MPI_Comm machine;
		    int here = 0, first = 0;
		    cf_mpi_check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine),
		                 "MPI_Comm_split_type");
		    cf_mpi_check(MPI_Comm_size(machine, &here), "MPI_Comm_size");
		    cf_mpi_check(MPI_Exscan(&cores, &first, 1, MPI_INT, MPI_SUM, machine), "MPI_Exscan");
		    int local = 0;
		    cf_mpi_check(MPI_Comm_rank(machine, &local), "MPI_Comm_rank");
		    MPI_Comm_free(&machine);
		    if (!pin || here == 1) return pin;
		    if (local == 0) first = 0; /* MPI_Exscan leaves the first process's result undefined */
		    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		    if (cpus <= 0) return 0;
		    cpu_set_t set;
		    CPU_ZERO(&set);
		    for (int i = 0; i < cores; i++) CPU_SET((int)((first + i) % cpus), &set);
		    /* a hint, as pinning threads is: where the platform refuses it, the process runs anywhere */
		    (void)sched_setaffinity(0, sizeof set, &set);
		    return 0;
		}
	'''

	/** Persistent send and receive requests: made, started, waited for, freed. */
	def private requests() '''
		static int count_of(size_t bytes, const char *what) {
		    if (bytes > (size_t)INT_MAX) {
		        fprintf(stderr, "error: %s: %zu bytes exceed MPI's count type\n", what, bytes);
		        MPI_Abort(MPI_COMM_WORLD, 3);
		    }
		    return (int)bytes;
		}

		void cf_mpi_send_init(MPI_Request *requests, int slots, uint8_t *base, size_t bytes, int peer, int tag,
		                      const char *what) {
		    for (int s = 0; s < slots; s++)
		        cf_mpi_check(MPI_Send_init(base + (size_t)s * bytes, count_of(bytes, what), MPI_BYTE, peer, tag,
		                                   MPI_COMM_WORLD, &requests[s]), what);
		}

		void cf_mpi_recv_init(MPI_Request *requests, int slots, uint8_t *base, size_t bytes, int peer, int tag,
		                      long iterations, const char *what) {
		    for (int s = 0; s < slots; s++) {
		        cf_mpi_check(MPI_Recv_init(base + (size_t)s * bytes, count_of(bytes, what), MPI_BYTE, peer, tag,
		                                   MPI_COMM_WORLD, &requests[s]), what);
		        if (s < iterations) cf_mpi_start(&requests[s], what);
		    }
		}

		void cf_mpi_wait(MPI_Request *request, const char *what) {
		    cf_mpi_check(MPI_Wait(request, MPI_STATUS_IGNORE), what);
		}

		void cf_mpi_start(MPI_Request *request, const char *what) { cf_mpi_check(MPI_Start(request), what); }

		void cf_mpi_free(MPI_Request *requests, int slots, int receive, const char *what) {
		    for (int s = 0; s < slots; s++) {
		        int done = 0;
		        cf_mpi_check(MPI_Test(&requests[s], &done, MPI_STATUS_IGNORE), what);
		        /* a receive still pending was posted for an iteration that did not run (a stop requested by an actor) */
		        if (!done && receive) cf_mpi_check(MPI_Cancel(&requests[s]), what);
		        if (!done) cf_mpi_wait(&requests[s], what);
		        cf_mpi_check(MPI_Request_free(&requests[s]), what);
		    }
		}
	'''

	/** What rank 0 prints for every node: digests, statistics, the longest time. */
	def private gathering() '''
		void cf_mpi_gather_digests(cf_md5 *parts, int count, const int *node_of_part) {
		    if (count == 0) return;
		    int nodes = 0;
		    cf_mpi_check(MPI_Comm_size(MPI_COMM_WORLD, &nodes), "MPI_Comm_size");
		    MPI_Datatype part;
		    cf_mpi_check(MPI_Type_contiguous((int)sizeof(cf_md5), MPI_BYTE, &part), "MPI_Type_contiguous");
		    cf_mpi_check(MPI_Type_commit(&part), "MPI_Type_commit");
		    cf_md5 *all = NULL;
		    if (cf_mpi_rank == 0) {
		        all = malloc(sizeof(cf_md5) * (size_t)count * (size_t)nodes);
		        if (!all) {
		            fprintf(stderr, "error: out of memory gathering the sink digests\n");
		            MPI_Abort(MPI_COMM_WORLD, 3);
		        }
		    }
		    cf_mpi_check(MPI_Gather(parts, count, part, all, count, part, 0, MPI_COMM_WORLD), "MPI_Gather (sink digests)");
		    if (cf_mpi_rank == 0) {
		        for (int p = 0; p < count; p++) parts[p] = all[(size_t)node_of_part[p] * (size_t)count + (size_t)p];
		        free(all);
		    }
		    MPI_Type_free(&part);
		}

		void cf_mpi_gather_stats(void) {
		    cf_stats mine, sum;
		    cf_stats_total(&mine);
		    memset(&sum, 0, sizeof sum);
		    cf_mpi_check(MPI_Reduce(&mine, &sum, (int)(sizeof(cf_stats) / sizeof(uint64_t)), MPI_UINT64_T, MPI_SUM, 0,
		                            MPI_COMM_WORLD), "MPI_Reduce (statistics)");
		    if (cf_mpi_rank != 0) return;
		    /* rank 0 prints the totals: add what the other ranks counted */
		    uint64_t *total = (uint64_t *)&sum;
		    const uint64_t *own = (const uint64_t *)&mine;
		    for (size_t i = 0; i < sizeof(cf_stats) / sizeof(uint64_t); i++) total[i] -= own[i];
		    cf_stats_add(&sum);
		}

		double cf_mpi_max_seconds(double seconds) {
		    double longest = seconds;
		    cf_mpi_check(MPI_Reduce(&seconds, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD), "MPI_Reduce (time)");
		    return longest;
		}
	'''
}
