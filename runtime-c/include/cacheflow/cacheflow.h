/* cacheflow runtime: everything generated code may call. Include this one header. */
#ifndef CACHEFLOW_CACHEFLOW_H
#define CACHEFLOW_CACHEFLOW_H

#include "cacheflow/barrier.h"
#include "cacheflow/channel.h"
#include "cacheflow/copy.h"
#include "cacheflow/cow.h"
#include "cacheflow/cpu.h"
#include "cacheflow/flag.h"
#include "cacheflow/heap.h"
#include "cacheflow/prestore.h"
#include "cacheflow/sched.h"
#include "cacheflow/stats.h"

#endif
