// The song upload's public face: how another screen opens it with a cover already chosen. Its
// form is a composition of the upload kit (components/upload/); its screen (upload-page) is a
// lazy route in app.tsx.
export { uploadWithCover, type UploadRouteState } from './upload-cover.ts';
