package org.cacheflow.io;
