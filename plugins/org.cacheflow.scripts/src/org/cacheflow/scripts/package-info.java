package org.cacheflow.scripts;
