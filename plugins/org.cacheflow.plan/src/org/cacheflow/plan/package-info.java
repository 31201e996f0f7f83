package org.cacheflow.plan;
