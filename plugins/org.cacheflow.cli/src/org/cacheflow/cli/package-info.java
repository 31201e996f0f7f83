package org.cacheflow.cli;
