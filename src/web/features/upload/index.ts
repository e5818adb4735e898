// The song upload shares nothing with other features: its form is a composition of the upload
// kit (components/upload/). Its screen (upload-page) is a lazy route in app.tsx.
export {};
