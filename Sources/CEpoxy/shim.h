// libepoxy for Swift: epoxy's gl* names are macros over function-pointer globals, which Swift
// cannot see (and touching the globals from Swift would be a concurrency error). Every GL call
// Reel makes is wrapped here as a static inline function.
#ifndef REEL_CEPOXY_SHIM_H
#define REEL_CEPOXY_SHIM_H
#include <epoxy/gl.h>

static inline GLenum reel_gl_get_error(void) { return glGetError(); }
static inline void reel_gl_get_integerv(GLenum name, GLint *value) { glGetIntegerv(name, value); }
static inline const GLubyte *reel_gl_get_string(GLenum name) { return glGetString(name); }
static inline int reel_gl_version(void) { return epoxy_gl_version(); }
static inline int reel_gl_is_es(void) { return !epoxy_is_desktop_gl(); }
static inline int reel_gl_has_extension(const char *name) { return epoxy_has_gl_extension(name); }

static inline void reel_gl_viewport(GLint x, GLint y, GLsizei w, GLsizei h) { glViewport(x, y, w, h); }
static inline void reel_gl_clear_color(GLfloat r, GLfloat g, GLfloat b, GLfloat a) { glClearColor(r, g, b, a); }
static inline void reel_gl_clear(GLbitfield mask) { glClear(mask); }
static inline void reel_gl_disable(GLenum cap) { glDisable(cap); }
static inline void reel_gl_enable(GLenum cap) { glEnable(cap); }
static inline void reel_gl_blend_func(GLenum src, GLenum dst) { glBlendFunc(src, dst); }

// Textures
static inline void reel_gl_gen_textures(GLsizei n, GLuint *out) { glGenTextures(n, out); }
static inline void reel_gl_delete_textures(GLsizei n, const GLuint *t) { glDeleteTextures(n, t); }
static inline void reel_gl_active_texture(GLenum unit) { glActiveTexture(unit); }
static inline void reel_gl_bind_texture(GLenum target, GLuint t) { glBindTexture(target, t); }
static inline void reel_gl_tex_parameteri(GLenum target, GLenum name, GLint value) { glTexParameteri(target, name, value); }
static inline void reel_gl_generate_mipmap(GLenum target) { glGenerateMipmap(target); }
static inline void reel_gl_pixel_storei(GLenum name, GLint value) { glPixelStorei(name, value); }
static inline void reel_gl_tex_image_2d(GLenum target, GLint level, GLint internal, GLsizei w, GLsizei h,
                                        GLenum format, GLenum type, const void *data) {
    glTexImage2D(target, level, internal, w, h, 0, format, type, data);
}
static inline void reel_gl_tex_sub_image_2d(GLenum target, GLint level, GLint x, GLint y, GLsizei w, GLsizei h,
                                            GLenum format, GLenum type, const void *data) {
    glTexSubImage2D(target, level, x, y, w, h, format, type, data);
}

// Shaders and programs
static inline GLuint reel_gl_create_shader(GLenum type) { return glCreateShader(type); }
static inline void reel_gl_shader_source(GLuint shader, const char *source) { glShaderSource(shader, 1, &source, NULL); }
static inline void reel_gl_compile_shader(GLuint shader) { glCompileShader(shader); }
static inline GLint reel_gl_shader_compiled(GLuint shader) { GLint ok = 0; glGetShaderiv(shader, GL_COMPILE_STATUS, &ok); return ok; }
static inline void reel_gl_shader_log(GLuint shader, GLsizei size, char *out) { glGetShaderInfoLog(shader, size, NULL, out); }
static inline void reel_gl_delete_shader(GLuint shader) { glDeleteShader(shader); }
static inline GLuint reel_gl_create_program(void) { return glCreateProgram(); }
static inline void reel_gl_attach_shader(GLuint program, GLuint shader) { glAttachShader(program, shader); }
static inline void reel_gl_bind_attrib_location(GLuint program, GLuint index, const char *name) { glBindAttribLocation(program, index, name); }
static inline void reel_gl_link_program(GLuint program) { glLinkProgram(program); }
static inline GLint reel_gl_program_linked(GLuint program) { GLint ok = 0; glGetProgramiv(program, GL_LINK_STATUS, &ok); return ok; }
static inline void reel_gl_program_log(GLuint program, GLsizei size, char *out) { glGetProgramInfoLog(program, size, NULL, out); }
static inline void reel_gl_use_program(GLuint program) { glUseProgram(program); }
static inline void reel_gl_delete_program(GLuint program) { glDeleteProgram(program); }
static inline GLint reel_gl_uniform_location(GLuint program, const char *name) { return glGetUniformLocation(program, name); }
static inline void reel_gl_uniform1i(GLint location, GLint v) { glUniform1i(location, v); }
static inline void reel_gl_uniform1f(GLint location, GLfloat v) { glUniform1f(location, v); }
static inline void reel_gl_uniform2f(GLint location, GLfloat a, GLfloat b) { glUniform2f(location, a, b); }
static inline void reel_gl_uniform3f(GLint location, GLfloat a, GLfloat b, GLfloat c) { glUniform3f(location, a, b, c); }
static inline void reel_gl_uniform4f(GLint location, GLfloat a, GLfloat b, GLfloat c, GLfloat d) { glUniform4f(location, a, b, c, d); }
static inline void reel_gl_uniform_matrix3fv(GLint location, const GLfloat *m) { glUniformMatrix3fv(location, 1, GL_FALSE, m); }

// Geometry
static inline void reel_gl_gen_vertex_arrays(GLsizei n, GLuint *out) { glGenVertexArrays(n, out); }
static inline void reel_gl_delete_vertex_arrays(GLsizei n, const GLuint *a) { glDeleteVertexArrays(n, a); }
static inline void reel_gl_bind_vertex_array(GLuint a) { glBindVertexArray(a); }
static inline void reel_gl_gen_buffers(GLsizei n, GLuint *out) { glGenBuffers(n, out); }
static inline void reel_gl_delete_buffers(GLsizei n, const GLuint *b) { glDeleteBuffers(n, b); }
static inline void reel_gl_bind_buffer(GLenum target, GLuint b) { glBindBuffer(target, b); }
static inline void reel_gl_buffer_data(GLenum target, GLsizeiptr size, const void *data, GLenum usage) { glBufferData(target, size, data, usage); }
static inline void reel_gl_vertex_attrib_pointer(GLuint index, GLint size, GLenum type, GLsizei stride, GLsizeiptr offset) {
    glVertexAttribPointer(index, size, type, GL_FALSE, stride, (const void *)offset);
}
static inline void reel_gl_enable_vertex_attrib_array(GLuint index) { glEnableVertexAttribArray(index); }
static inline void reel_gl_draw_arrays(GLenum mode, GLint first, GLsizei count) { glDrawArrays(mode, first, count); }

// Read-back (snapshots of what was drawn)
static inline void reel_gl_bind_framebuffer(GLenum target, GLuint fb) { glBindFramebuffer(target, fb); }
static inline void reel_gl_read_pixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type, void *out) {
    glReadPixels(x, y, w, h, format, type, out);
}
#endif
