/* make bench's GL side (docs/speed-history.md "Measuring against softpipe"): draws
 * FRAMES full-screen quads with one of the three shaders of ../shared/perf
 * (fs_color, fs_tex, fs_lit: the GLSL there, in ESSL 1.00) through
 * surfaceless EGL and GLES 2.0, on whichever Gallium driver Mesa loads
 * (GALLIUM_DRIVER=softpipe, or ulpsim under `ulpsim gl`).  The texture is a
 * 256 x 256 RGBA8 pattern, bilinear, as ../shared/perf/osmesa_probe.c makes
 * it.  At exit it prints one line: the process's CPU seconds (every thread),
 * its peak RSS and a pixel of the result; bench/side_by_side.sh subtracts
 * a 1-frame run from a FRAMES-frame run.
 *
 * usage: gl_side SHADER W H FRAMES */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static const char vs_src[] =
	"attribute vec4 pos; attribute vec2 uv; attribute vec4 col;\n"
	"varying vec2 v_uv; varying vec4 v_col;\n"
	"void main() { gl_Position = pos; v_uv = uv; v_col = col; }\n";

static const struct {
	const char *name, *src;
} shaders[] = {
	{ "fs_color", "precision mediump float;\nvarying vec2 v_uv; varying vec4 v_col;\n"
	              "void main() { gl_FragColor = v_col; }\n" },
	{ "fs_tex", "precision mediump float;\nuniform sampler2D tex; varying vec2 v_uv; varying vec4 v_col;\n"
	            "void main() { gl_FragColor = texture2D(tex, v_uv) * v_col; }\n" },
	{ "fs_lit",
	  "precision mediump float;\n"
	  "uniform sampler2D tex; uniform vec4 light; varying vec2 v_uv; varying vec4 v_col;\n"
	  "void main() {\n"
	  "  vec3 n = normalize(vec3(v_uv * 2.0 - 1.0, 0.7));\n"
	  "  vec3 l = normalize(light.xyz);\n"
	  "  vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));\n"
	  "  float d = max(dot(n, l), 0.0);\n"
	  "  float s = pow(max(dot(n, h), 0.0), 16.0);\n"
	  "  vec4 t = texture2D(tex, v_uv);\n"
	  "  gl_FragColor = vec4(t.rgb * (0.2 + 0.8 * d) * v_col.rgb + vec3(s), 1.0);\n"
	  "}\n" },
};

static int fail(const char *what)
{
	fprintf(stderr, "gl_side: %s\n", what);
	return 2;
}

static GLuint compile(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	GLint ok = 0;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[2048];
		glGetShaderInfoLog(s, sizeof log, NULL, log);
		fprintf(stderr, "gl_side: shader: %s\n", log);
		return 0;
	}
	return s;
}

int main(int argc, char **argv)
{
	if (argc != 5)
		return fail("usage: gl_side fs_color|fs_tex|fs_lit W H FRAMES");
	int which = -1;
	for (int k = 0; k < 3; k++)
		if (!strcmp(argv[1], shaders[k].name))
			which = k;
	const int w = atoi(argv[2]), h = atoi(argv[3]), frames = atoi(argv[4]), ts = 256;
	if (which < 0 || w < 1 || h < 1 || w > 4096 || h > 4096 || frames < 1)
		return fail("usage: gl_side fs_color|fs_tex|fs_lit W H FRAMES");

	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get_display)
		return fail("no eglGetPlatformDisplayEXT");
	EGLDisplay dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
		return fail("no surfaceless EGL display");
	static const EGLint cattr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
	                                EGL_NONE };
	EGLConfig cfg;
	EGLint n = 0;
	if (!eglBindAPI(EGL_OPENGL_ES_API) || !eglChooseConfig(dpy, cattr, &cfg, 1, &n) || n < 1)
		return fail("no GLES 2 config");
	static const EGLint xattr[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, xattr);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
		return fail("no GLES 2 context");

	/* the render target: an RGBA8 texture behind a framebuffer object */
	GLuint rt, fbo;
	glGenTextures(1, &rt);
	glBindTexture(GL_TEXTURE_2D, rt);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, rt, 0);
	if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		return fail("framebuffer incomplete");

	GLuint vs = compile(GL_VERTEX_SHADER, vs_src), fs = compile(GL_FRAGMENT_SHADER, shaders[which].src);
	if (!vs || !fs)
		return 2;
	GLuint p = glCreateProgram();
	glAttachShader(p, vs);
	glAttachShader(p, fs);
	glBindAttribLocation(p, 0, "pos");
	glBindAttribLocation(p, 1, "uv");
	glBindAttribLocation(p, 2, "col");
	glLinkProgram(p);
	GLint linked = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &linked);
	if (!linked)
		return fail("link failed");
	glUseProgram(p);

	unsigned char *tex = malloc((size_t)ts * ts * 4);
	if (!tex)
		return fail("out of memory");
	for (int y = 0; y < ts; y++)
		for (int x = 0; x < ts; x++) {
			unsigned char *t = tex + 4 * (y * ts + x);
			t[0] = (unsigned char)(x * 255 / (ts - 1));
			t[1] = (unsigned char)(y * 255 / (ts - 1));
			t[2] = ((x ^ y) & 16) ? 255 : 0;
			t[3] = 255;
		}
	GLuint to;
	glActiveTexture(GL_TEXTURE0);
	glGenTextures(1, &to);
	glBindTexture(GL_TEXTURE_2D, to);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, ts, ts, 0, GL_RGBA, GL_UNSIGNED_BYTE, tex);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	free(tex);
	GLint u = glGetUniformLocation(p, "tex");
	if (u >= 0)
		glUniform1i(u, 0);
	u = glGetUniformLocation(p, "light");
	if (u >= 0)
		glUniform4f(u, 0.3f, 0.5f, 0.8f, 0.0f);
	/* two triangles covering the target: pos.xyzw, uv, colour */
	static const float v[] = {
		-1, -1, 0, 1, 0, 0, 1, 0, 0, 1,  1, -1, 0, 1, 1, 0, 0, 1, 0, 1,  1, 1, 0, 1, 1, 1, 0, 0, 1, 1,
		-1, -1, 0, 1, 0, 0, 1, 0, 0, 1,  1, 1, 0, 1, 1, 1, 0, 0, 1, 1,  -1, 1, 0, 1, 0, 1, 1, 1, 1, 1,
	};
	GLuint vb;
	glGenBuffers(1, &vb);
	glBindBuffer(GL_ARRAY_BUFFER, vb);
	glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 40, (const void *)0);
	glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 40, (const void *)16);
	glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, 40, (const void *)24);
	for (GLuint a = 0; a < 3; a++)
		glEnableVertexAttribArray(a);
	glViewport(0, 0, w, h);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	for (int f = 0; f < frames; f++) {
		glDrawArrays(GL_TRIANGLES, 0, 6);
		glFlush();
	}
	unsigned char px[4] = { 0 };
	glReadPixels(w / 3, h / 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);   /* waits for the frames */
	if (glGetError() != GL_NO_ERROR)
		return fail("a GL error");
	eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(dpy, ctx);
	eglTerminate(dpy);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	const double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	                   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	printf("gl_side %s %dx%d frames %d cpu %.6f rss_kb %ld pixel %d,%d,%d,%d\n", shaders[which].name, w, h,
	       frames, cpu, ru.ru_maxrss, px[0], px[1], px[2], px[3]);
	return 0;
}
